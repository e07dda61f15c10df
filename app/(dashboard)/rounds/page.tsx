import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Rounds" };

export default async function RoundsPage() {
  await requireActor();
  return (
    <ComingSoon
      title="Rounds"
      what="Charts of difficulty growth across rounds — yield, validation rate, solution length, commands, tools, pass@k — by run, category and seed family, with a click-through to the matching tasks."
    />
  );
}
