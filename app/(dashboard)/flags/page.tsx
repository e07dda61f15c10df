import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";
import { requireActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "Flags" };

export default async function FlagsPage() {
  await requireActor();
  return (
    <ComingSoon
      title="Flags"
      what="Verifier-consistency flags with their evidence, counted per rule and per round, to resolve or dismiss — automatic checks and reviewers' manual flags side by side."
    />
  );
}
