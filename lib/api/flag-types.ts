// JSON shapes of flags (automatic findings and manual flags) and their counts.
import type { FlagEvidence, FlagSeverity, FlagSource, FlagStatus } from "@/lib/flags/types";

/** A flag (`GET /api/v1/flags`): an automatic finding or a reviewer's manual flag, on one content hash. */
export interface FlagJson {
  id: number;
  task_id: number;
  /** The task's id in its run (tasks.ext_id). */
  task_ext_id: string;
  run: string;
  round: number | null;
  operator: string | null;
  /** A rule of FLAG_RULES, or "manual". */
  rule: string;
  source: FlagSource;
  status: FlagStatus;
  /** An automatic flag raised on an older revision of the task: shown, never counted open. */
  outdated: boolean;
  severity: FlagSeverity;
  message: string;
  evidence: FlagEvidence;
  content_hash: string;
  created_at: string;
  created_by: string | null;
  resolved_at: string | null;
  resolved_by: string | null;
  resolution: string | null;
  /** Where the dashboard opens the evidence (a diff line, a file line, a log line, a trial), or the task. */
  evidence_href: string;
}

export interface FlagListJson {
  items: FlagJson[];
  next: string | null;
}

/** Flags of one rule by their status; `open` leaves outdated flags out. */
export interface FlagRuleCountJson {
  rule: string;
  open: number;
  outdated: number;
  resolved: number;
  dismissed: number;
}

/** One cell of a rule × round or rule × operator table (open flags, outdated left out). */
export interface FlagCellJson {
  rule: string;
  /** A round number, or an operator name ("" for seeds, which have none). */
  key: string;
  count: number;
}

export interface FlagCountsJson {
  run: string | null;
  rules: FlagRuleCountJson[];
  by_round: FlagCellJson[];
  by_operator: FlagCellJson[];
}
