import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Review" };

export default async function ReviewPage() {
  await requireActor("review");
  return (
    <ComingSoon
      title="Review"
      what="A keyboard-driven review queue: accept, reject with a reason, ask for changes or skip, with notes, submit-and-next and conflict-safe concurrent reviewing."
    />
  );
}
