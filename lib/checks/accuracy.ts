// Precision and recall of the flags per rule against a ground-truth list (the generator's
// truth.jsonl: one {"task_id", "rule"} per line, task_id the task's external id).
import { FLAG_RULES, type FlagRule } from "@/lib/domain";

export interface TruthEntry {
  taskId: string;
  rule: string;
}

export interface RuleAccuracy {
  rule: FlagRule;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** null when the rule flagged nothing (precision undefined) */
  precision: number | null;
  /** null when the truth lists nothing for the rule */
  recall: number | null;
  /** task ids, for a reviewer to look at */
  falsePositiveIds: string[];
  falseNegativeIds: string[];
}

export function parseTruth(text: string, file = "truth.jsonl"): TruthEntry[] {
  const out: TruthEntry[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new Error(`${file}:${i + 1}: not JSON`);
    }
    const o = v as { task_id?: unknown; rule?: unknown };
    if (typeof o.task_id !== "string" || typeof o.rule !== "string") throw new Error(`${file}:${i + 1}: expected {"task_id", "rule"}`);
    out.push({ taskId: o.task_id, rule: o.rule });
  });
  return out;
}

export function accuracy(flags: readonly { extId: string; rule: string }[], truth: readonly TruthEntry[], rules: readonly FlagRule[] = FLAG_RULES): RuleAccuracy[] {
  return rules.map((rule) => {
    const flagged = new Set(flags.filter((f) => f.rule === rule).map((f) => f.extId));
    const expected = new Set(truth.filter((t) => t.rule === rule).map((t) => t.taskId));
    const tp = [...flagged].filter((id) => expected.has(id)).length;
    const fp = [...flagged].filter((id) => !expected.has(id)).sort();
    const fn = [...expected].filter((id) => !flagged.has(id)).sort();
    return {
      rule,
      truePositives: tp,
      falsePositives: fp.length,
      falseNegatives: fn.length,
      precision: flagged.size === 0 ? null : tp / flagged.size,
      recall: expected.size === 0 ? null : tp / expected.size,
      falsePositiveIds: fp,
      falseNegativeIds: fn,
    };
  });
}
