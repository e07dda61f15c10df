"use client";

import type { SeedFamilyJson } from "@/lib/api/types";
import { formatInt, formatPct } from "@/lib/format/number";
import { describeSlice } from "@/lib/rounds/slice-text";
import { sliceKey } from "@/lib/rounds/url-state";
import { BaselinesPanel } from "./baselines-panel";
import { CountsChart } from "./counts-chart";
import { DistributionChart } from "./distribution-chart";
import { OperatorChart } from "./operator-chart";
import { RatesChart } from "./rates-chart";
import { RoundsControls } from "./rounds-controls";
import { SolverChart } from "./solver-chart";
import { useRoundsData } from "./use-rounds-data";
import { useRoundsState } from "./use-rounds-state";

export type RoundsViewProps = {
  defaultRun: string;
  runs: string[];
  categories: string[];
  operators: string[];
  seeds: SeedFamilyJson[];
  /** What the signed-in role may do with baselines (the server checks again). */
  canSaveBaseline: boolean;
  canDeleteBaseline: boolean;
};

export function RoundsView({ defaultRun, runs, categories, operators, seeds, canSaveBaseline, canDeleteBaseline }: RoundsViewProps) {
  const { state, update } = useRoundsState(defaultRun);
  const run = state.run ?? defaultRun;
  const { primary, series, baselines, missing, list, error, fetching } = useRoundsData(run, state);
  const fileParts = primary ? [primary.run, ...Object.values(primary.slice).map(String)] : [];
  const totals = primary?.rounds.reduce(
    (t, r) => ({ candidates: t.candidates + r.candidates, accepted: t.accepted + r.accepted }),
    { candidates: 0, accepted: 0 },
  );
  const compared = series.slice(1).map((r) => r.run);
  // A baseline keeps the slice it was saved for, which may not be the page's.
  const otherSlice = baselines.filter((b) => sliceKey(b.slice) !== sliceKey(state.slice));

  return (
    <div className="flex flex-col gap-3" aria-busy={fetching}>
      <RoundsControls state={state} update={update} runs={runs} categories={categories} operators={operators} seeds={seeds} />
      <BaselinesPanel
        run={run}
        slice={state.slice}
        seeds={seeds}
        items={list}
        active={state.baselines}
        onToggle={(id) => update({ baselines: state.baselines.includes(id) ? state.baselines.filter((b) => b !== id) : [...state.baselines, id] })}
        onDeleted={(id) => state.baselines.includes(id) && update({ baselines: state.baselines.filter((b) => b !== id) })}
        canSave={canSaveBaseline}
        canDelete={canDeleteBaseline}
      />
      {error && (
        <p role="alert" className="rounded-md border border-bad/40 bg-bad-soft px-3 py-2 text-xs text-bad">
          {error.message}
        </p>
      )}
      {missing.length > 0 && (
        <p role="status" className="rounded-md border border-warn/40 bg-warn-soft px-3 py-2 text-xs text-warn">
          This link compares with {missing.length === 1 ? "a baseline that no longer exists" : `${missing.length} baselines that no longer exist`} (deleted).{" "}
          <button type="button" className="underline" onClick={() => update({ baselines: state.baselines.filter((b) => !missing.includes(b)) })}>
            Remove from the view
          </button>
        </p>
      )}
      {primary && totals && (
        <p className="text-xs text-muted" data-testid="rounds-summary">
          <span className="font-medium text-fg">{primary.run}</span> · {describeSlice(primary.slice, seeds)} · {formatInt(totals.candidates)} candidates,{" "}
          {formatInt(totals.accepted)} accepted ({formatPct(totals.candidates ? totals.accepted / totals.candidates : null)})
          {compared.length > 0 && ` · compared with ${compared.join(", ")}`}
        </p>
      )}
      {otherSlice.map((b) => (
        <p key={b.id} className="rounded-md border border-info/40 bg-info-soft px-3 py-2 text-xs text-info">
          Baseline “{b.name}” holds {b.run} · {describeSlice(b.slice, seeds)}; the page shows {describeSlice(state.slice, seeds)}.{" "}
          <button type="button" className="underline" onClick={() => update({ slice: { category: undefined, operator: undefined, root: undefined, review: undefined, ...b.slice } })}>
            Show the baseline&apos;s slice
          </button>
        </p>
      ))}
      {primary && primary.rounds.length === 0 && (
        <p className="rounded-lg border border-dashed border-line-strong bg-surface px-4 py-8 text-center text-xs text-muted">No tasks in this slice.</p>
      )}
      {primary && primary.rounds.length > 0 && (
        <div className={`grid gap-3 xl:grid-cols-2 ${fetching ? "opacity-70 transition-opacity" : ""}`}>
          <CountsChart run={primary} fileParts={fileParts} />
          <RatesChart runs={series} fileParts={fileParts} />
          <DistributionChart runs={series} metric={state.metric} band={state.band} log={state.log} fileParts={fileParts} />
          <SolverChart runs={series} fileParts={fileParts} />
          <div className="xl:col-span-2">
            <OperatorChart run={primary} fileParts={fileParts} />
          </div>
        </div>
      )}
    </div>
  );
}
