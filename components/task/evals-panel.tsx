import { VisibleText } from "@/components/code/visible-text";
import type { EvalJson } from "@/lib/api/types";
import { formatPct, formatScore } from "@/lib/format/number";
import { SideSection } from "./side-section";

export type EvalsPanelProps = { evals: EvalJson[] };

export function EvalsPanel({ evals }: EvalsPanelProps) {
  return (
    <SideSection title="Solver evaluations" count={evals.length}>
      {evals.length === 0 ? (
        <p className="text-xs text-faint">Not evaluated.</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {evals.map((e) => (
            <li key={`${e.model}:${e.k}`} className="text-xs">
              <p className="truncate font-medium" title={e.model}>
                <VisibleText text={e.model} />
              </p>
              <dl className="mt-0.5 flex flex-wrap gap-x-3 font-mono text-2xs tabular-nums text-muted">
                <div className="flex gap-1">
                  <dt>pass@{e.k}</dt>
                  <dd className="text-fg">{formatPct(e.pass_at_k)}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>solved</dt>
                  <dd className="text-fg">
                    {e.successes}/{e.n}
                  </dd>
                </div>
                <div className="flex gap-1">
                  <dt>reward</dt>
                  <dd className="text-fg">{formatScore(e.mean_reward)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </SideSection>
  );
}
