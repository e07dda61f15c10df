// Chart rows from round statistics: one row per round, one key per run (v0, v1, …) so that
// runs compared on the same axes line up by round even when they have different rounds.
import type { BaselineJson, RoundDetailJson, RunRoundDetailJson } from "@/lib/api/types";

export type Row = { round: number } & Record<string, number | [number, number] | null>;

export function roundsOf(runs: RunRoundDetailJson[]): number[] {
  return [...new Set(runs.flatMap((r) => r.rounds.map((x) => x.round)))].sort((a, b) => a - b);
}

/** Rows keyed `${prefix}${runIndex}` for each picked value. */
export function mergeByRound(runs: RunRoundDetailJson[], picks: Record<string, (r: RoundDetailJson) => number | [number, number] | null>): Row[] {
  const index = runs.map((run) => new Map(run.rounds.map((r) => [r.round, r])));
  return roundsOf(runs).map((round) => {
    const row: Row = { round };
    index.forEach((byRound, i) => {
      const r = byRound.get(round);
      for (const [prefix, pick] of Object.entries(picks)) row[`${prefix}${i}`] = r ? pick(r) : null;
    });
    return row;
  });
}

/** Rejection reasons of a run, most frequent first. */
export function reasonsOf(run: RunRoundDetailJson): string[] {
  const totals = new Map<string, number>();
  for (const r of run.rounds) for (const x of r.rejection_reasons) totals.set(x.reason, (totals.get(x.reason) ?? 0) + x.count);
  return [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason]) => reason);
}

export const SEED_OPERATOR = "(seed)";

/** The `top` operators by accepted tasks over the run; the rest are folded into "other". */
export function topOperators(run: RunRoundDetailJson, top: number): string[] {
  const totals = new Map<string, number>();
  for (const r of run.rounds) for (const o of r.operators) totals.set(o.operator ?? SEED_OPERATOR, (totals.get(o.operator ?? SEED_OPERATOR) ?? 0) + o.accepted);
  return [...totals]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([op]) => op);
}

/** Positive values only on a log axis: zero and below have no place there. */
export function forLog(v: number | null, log: boolean): number | null {
  return log && v !== null && v <= 0 ? null : v;
}

/** A saved baseline drawn like a compared run, named so that it is not taken for one. */
export function baselineSeries(b: BaselineJson): RunRoundDetailJson {
  return { ...b.stats, run: `${b.name} (baseline)` };
}
