// Where the dashboard opens a flag's evidence. Plain strings, safe in the browser; the pages they
// point at read the anchors: the diff `#f<i>-L<n>`, the task file `#L<n>`, the log viewer `#L<n>`.
import { logPageUrl } from "@/lib/query/logs";
import type { FlagEvidence } from "./types";

const positive = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n > 0;

/** A log name goes into the path: `.` and `..` segments would let the link climb out of the trial. */
const safeLogName = (name: unknown): name is string => typeof name === "string" && name !== "" && name.split("/").every((p) => p !== "" && p !== "." && p !== "..");

/** A task's file at a line (the task page's file view). */
export function taskFileHref(taskId: number, file: string, line?: number): string {
  return `/tasks/${taskId}?file=${encodeURIComponent(file)}${positive(line) ? `#L${line}` : "#files"}`;
}

/**
 * The most specific place the evidence names: a line of the diff against the compared task (when
 * the file's position in that diff is known), a log line, a file line, the trial, else the task.
 */
export function evidenceHref(taskId: number, e: FlagEvidence, diffIndex: number | null = null): string {
  if (positive(e.compare_task_id) && typeof e.file === "string") {
    const base = `/tasks/${taskId}/diff?against=${e.compare_task_id}&file=${encodeURIComponent(e.file)}`;
    return diffIndex !== null && positive(e.line) ? `${base}#f${diffIndex}-L${e.line}` : base;
  }
  if (positive(e.trial_id) && safeLogName(e.log)) {
    return logPageUrl({ trialId: e.trial_id, name: e.log }, positive(e.log_line) ? e.log_line : undefined);
  }
  if (typeof e.file === "string" && e.file !== "") return taskFileHref(taskId, e.file, e.line);
  if (positive(e.trial_id)) return `/tasks/${taskId}#trial-${e.trial_id}`;
  return `/tasks/${taskId}`;
}

/** What the evidence link says: `tests/test.sh:14 vs #12`, `verifier/test-stdout.txt:88`, a test name. */
export function evidenceLabel(e: FlagEvidence): string {
  const at = (name: string, line: unknown) => (positive(line) ? `${name}:${line}` : name);
  if (typeof e.file === "string" && positive(e.compare_task_id)) return `${at(e.file, e.line)} (diff)`;
  if (safeLogName(e.log) && positive(e.trial_id)) return at(e.log, e.log_line);
  if (typeof e.file === "string") return at(e.file, e.line);
  if (typeof e.test === "string") return e.test;
  if (positive(e.trial_id)) return `trial ${e.trial_id}`;
  return "task";
}
