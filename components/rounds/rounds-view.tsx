"use client";

import { useQueries } from "@tanstack/react-query";
import type { RunRoundDetailJson, SeedFamilyJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";
import { roundsQuery } from "@/lib/rounds/query";
import { CountsChart } from "./counts-chart";
import { DistributionChart } from "./distribution-chart";
import { OperatorChart } from "./operator-chart";
import { RatesChart } from "./rates-chart";
import { RoundsControls } from "./rounds-controls";
import { SolverChart } from "./solver-chart";
import { useRoundsState } from "./use-rounds-state";

export type RoundsViewProps = {
  defaultRun: string;
  runs: string[];
  categories: string[];
  operators: string[];
  seeds: SeedFamilyJson[];
};

function sliceText(data: RunRoundDetailJson, seeds: SeedFamilyJson[]): string {
  const s = data.slice;
  const parts = [
    s.category && `category ${s.category}`,
    s.operator && `operator ${s.operator}`,
    s.root !== undefined && `seed family ${seeds.find((x) => x.id === s.root)?.task_id ?? s.root}`,
    s.review && `review ${s.review}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" · ") : "all tasks";
}

export function RoundsView({ defaultRun, runs, categories, operators, seeds }: RoundsViewProps) {
  const { state, update } = useRoundsState(defaultRun);
  const names = [state.run ?? defaultRun, ...state.compare];
  const results = useQueries({ queries: names.map((n) => roundsQuery(n, state.slice)) });
  const loaded = results.map((r) => r.data).filter((d): d is RunRoundDetailJson => d !== undefined);
  const error = results.find((r) => r.error)?.error;
  const fetching = results.some((r) => r.isFetching);
  const primary = loaded[0];
  const fileParts = primary ? [primary.run, ...Object.values(primary.slice).map(String)] : [];
  const totals = primary?.rounds.reduce(
    (t, r) => ({ candidates: t.candidates + r.candidates, accepted: t.accepted + r.accepted }),
    { candidates: 0, accepted: 0 },
  );

  return (
    <div className="flex flex-col gap-3" aria-busy={fetching}>
      <RoundsControls state={state} update={update} runs={runs} categories={categories} operators={operators} seeds={seeds} />
      {error && (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-xs text-bad">
          {error.message}
        </p>
      )}
      {primary && totals && (
        <p className="text-xs text-muted" data-testid="rounds-summary">
          <span className="font-medium text-fg">{primary.run}</span> · {sliceText(primary, seeds)} · {formatInt(totals.candidates)} candidates,{" "}
          {formatInt(totals.accepted)} accepted ({formatPct(totals.candidates ? totals.accepted / totals.candidates : null)})
          {loaded.length > 1 && ` · compared with ${loaded.slice(1).map((r) => r.run).join(", ")}`}
        </p>
      )}
      {primary && primary.rounds.length === 0 && (
        <p className="rounded-lg border border-dashed border-line-strong bg-surface px-4 py-8 text-center text-xs text-muted">No tasks in this slice.</p>
      )}
      {primary && primary.rounds.length > 0 && (
        <div className={`grid gap-3 xl:grid-cols-2 ${fetching ? "opacity-70 transition-opacity" : ""}`}>
          <CountsChart run={primary} fileParts={fileParts} />
          <RatesChart runs={loaded} fileParts={fileParts} />
          <DistributionChart runs={loaded} metric={state.metric} band={state.band} log={state.log} fileParts={fileParts} />
          <SolverChart runs={loaded} fileParts={fileParts} />
          <div className="xl:col-span-2">
            <OperatorChart run={primary} fileParts={fileParts} />
          </div>
        </div>
      )}
    </div>
  );
}
