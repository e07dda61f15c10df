import Link from "next/link";
import type { RunOverviewJson, RunRoundDetailJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";
import { formatInt } from "@/lib/format/number";
import { BreakdownList } from "./breakdown-list";
import { HeadlineMetrics } from "./headline-metrics";
import { InferLineage } from "./infer-lineage";
import { LastImport } from "./last-import";
import { RoundTable } from "./round-table";
import { RunCurves } from "./run-curves";

export type RunOverviewProps = {
  overview: RunOverviewJson;
  curves?: RunRoundDetailJson | null;
  /** the viewer may infer lineage (admins) */
  canInfer?: boolean;
};

const LINEAGE_NOTE: Record<RunOverviewJson["lineage"], string | null> = {
  declared: null,
  inferred: "lineage inferred",
  none: "no lineage",
};

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex items-baseline gap-1">
      <span className="font-mono font-semibold tabular-nums">{formatInt(value)}</span>
      <span className="text-muted">{label}</span>
    </div>
  );
}

export function RunOverview({ overview, curves, canInfer = false }: RunOverviewProps) {
  const { run, rounds, solver } = overview;
  const tasks = (extra: Record<string, string>) => `/tasks?${new URLSearchParams({ run: run.name, ...extra }).toString()}`;
  return (
    <section aria-labelledby={`run-${run.id}`} className="rounded-lg border border-line bg-surface">
      <header className="flex flex-wrap items-center gap-x-5 gap-y-1 border-b border-line px-4 py-2.5">
        <h2 id={`run-${run.id}`} className="text-sm font-semibold">
          <Link href={`/?run=${encodeURIComponent(run.name)}`} className="hover:text-accent hover:underline">
            {run.name}
          </Link>
        </h2>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
          <Stat label="seeds" value={run.seeds} />
          <Stat label="rounds" value={run.rounds} />
          <Stat label="accepted" value={run.accepted} />
          <Stat label="rejected" value={run.rejected} />
          <Stat label="trials" value={run.trials} />
        </div>
        <p className="ml-auto text-2xs text-faint">
          {run.format} · ingested {formatDateTime(run.ingested_at)}
          {solver.model && ` · solver ${solver.model}`}
          {LINEAGE_NOTE[overview.lineage] && ` · ${LINEAGE_NOTE[overview.lineage]}`}
        </p>
        {canInfer && overview.lineage !== "declared" && <InferLineage run={run.name} inferred={overview.lineage === "inferred"} />}
      </header>
      <div className="flex flex-col gap-4 p-4">
        {rounds.length > 0 && <HeadlineMetrics rounds={rounds} solverK={solver.k} />}
        {curves && curves.rounds.length > 0 && <RunCurves detail={curves} />}
        <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_300px]">
          {rounds.length > 0 ? (
            <RoundTable run={run.name} rounds={rounds} solverK={solver.k} />
          ) : (
            <p className="text-xs text-muted">
              {overview.lineage === "none"
                ? "No rounds: these tasks arrived without lineage. Inferring it (an admin's Infer lineage…) gives each its generation."
                : "No rounds in this run."}
            </p>
          )}
          <div className="flex flex-col gap-5">
            <BreakdownList
              title="Rejection reasons"
              tone="bad"
              empty="No rejected candidates."
              items={overview.rejection_reasons.map((r) => ({ label: r.reason, count: r.count, href: tasks({ status: "rejected" }) }))}
            />
            <BreakdownList
              title="Review states"
              tone="accent"
              empty="No tasks."
              items={overview.review_states.map((r) => ({ label: r.review, count: r.count, href: tasks({ review: r.review }) }))}
            />
            <LastImport imp={overview.last_import} />
          </div>
        </div>
      </div>
    </section>
  );
}
