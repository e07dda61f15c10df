import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Rounds" };

export default function RoundsPage() {
  return (
    <ComingSoon
      title="Rounds"
      what="Charts of difficulty growth across rounds — yield, validation rate, solution length, commands, tools, pass@k — by run, category and seed family, with a click-through to the matching tasks."
    />
  );
}
