import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { CheckKind } from "@/lib/domain";
import { EXPECTATION, VERDICT_LABEL, type Verdict } from "@/lib/trials/verdict";

const VERDICT_TONE: Record<Verdict, BadgeTone> = {
  "as-expected": "ok",
  unexpected: "bad",
  "infra-error": "warn",
  "no-reward": "warn",
  agent: "neutral",
};

export function VerdictBadge({ verdict, check }: { verdict: Verdict; check: CheckKind }) {
  return (
    <Badge tone={VERDICT_TONE[verdict]} title={`A ${check} run expects ${EXPECTATION[check]}`}>
      {VERDICT_LABEL[verdict]}
    </Badge>
  );
}

const CHECK_LABEL: Record<CheckKind, string> = {
  oracle: "oracle",
  repeat: "repeat",
  nop: "no-op",
  "parent-solution": "parent solution",
  agent: "model",
};

export function CheckBadge({ check }: { check: CheckKind }) {
  return (
    <Badge tone={check === "agent" ? "neutral" : "info"} title={`Expects ${EXPECTATION[check]}`}>
      {CHECK_LABEL[check]}
    </Badge>
  );
}
