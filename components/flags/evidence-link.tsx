import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import type { FlagJson } from "@/lib/api/types";
import { evidenceLabel } from "@/lib/flags/evidence-href";

export type EvidenceLinkProps = { flag: Pick<FlagJson, "evidence" | "evidence_href" | "task_ext_id">; className?: string };

/** Opens the task where the flag's evidence is: the diff line, the file line, the log line, the trial. */
export function EvidenceLink({ flag, className }: EvidenceLinkProps) {
  const label = evidenceLabel(flag.evidence);
  return (
    <Link href={flag.evidence_href} className={`min-w-0 truncate font-mono text-accent hover:underline ${className ?? ""}`} title={`Open the evidence: ${label}`} data-evidence>
      <VisibleText text={label} />
    </Link>
  );
}
