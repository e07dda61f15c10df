import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { FlagJson } from "@/lib/api/types";
import type { FlagSeverity } from "@/lib/flags/types";

/** What each rule means, for the hover of its name. */
export const RULE_TEXT: Record<string, string> = {
  "oracle-fails": "The reference solution does not pass the task's own verifier.",
  "nop-passes": "Doing nothing passes the verifier: it checks too little.",
  "parent-solution-passes": "The parent's solution passes the new verifier: the new step is not verified.",
  "flaky-verifier": "The same solution got different rewards on the same content.",
  "verifier-not-updated": "The solution changed but the tests did not.",
  "instruction-not-updated": "The solution changed but the instruction did not.",
  "untold-requirement": "The tests check something the instruction never asks for.",
  "unverified-step": "A new solution step that no test checks.",
  "weakened-verifier": "Tests or assertions were removed from the verifier.",
  "no-reward": "A trial finished without a reward.",
  "missing-validation": "An oracle or nop trial is missing.",
  manual: "Raised by a reviewer.",
};

const SEVERITY_CLASS: Record<FlagSeverity, string> = { high: "bg-bad", medium: "bg-warn", low: "bg-faint" };

export function SeverityDot({ severity }: { severity: FlagSeverity }) {
  return <span role="img" aria-label={`${severity} severity`} title={`${severity} severity`} className={`inline-block size-2 shrink-0 rounded-full ${SEVERITY_CLASS[severity]}`} />;
}

/** The status a reviewer reads: open, outdated (an older revision), resolved, dismissed. */
export function FlagStatusBadge({ flag }: { flag: Pick<FlagJson, "status" | "outdated" | "resolution" | "resolved_by"> }) {
  if (flag.outdated) {
    return (
      <Badge tone="neutral" title="Raised on an older revision of the task; not counted open">
        outdated
      </Badge>
    );
  }
  const tone: BadgeTone = flag.status === "open" ? "warn" : flag.status === "resolved" ? "ok" : "neutral";
  const why = flag.resolution ? `${flag.status} by ${flag.resolved_by ?? "someone"}: ${flag.resolution}` : undefined;
  return (
    <Badge tone={tone} title={why}>
      {flag.status}
    </Badge>
  );
}

export function RuleName({ rule }: { rule: string }) {
  return (
    <span className="font-mono" title={RULE_TEXT[rule]}>
      {rule}
    </span>
  );
}
