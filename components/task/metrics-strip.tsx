import type { TaskDetailJson } from "@/lib/api/types";
import { formatInt, formatPct, formatScore } from "@/lib/format/number";

export type MetricsStripProps = { task: TaskDetailJson };

function Cell({ label, value, sub, title }: { label: string; value: string; sub?: string; title?: string }) {
  return (
    <div className="min-w-0 bg-surface px-3 py-2" title={title}>
      <dt className="truncate text-2xs text-muted">{label}</dt>
      <dd className="mt-0.5 font-mono text-sm font-semibold tabular-nums">
        {value}
        {sub && <span className="ml-1 text-2xs font-normal text-faint">{sub}</span>}
      </dd>
    </div>
  );
}

export function MetricsStrip({ task }: MetricsStripProps) {
  // The headline eval is the one the pass@k column comes from: the largest k measured.
  const best = [...task.evals].sort((a, b) => b.k - a.k || b.n - a.n)[0];
  return (
    <dl className="mb-4 grid grid-cols-2 gap-px overflow-hidden rounded-lg border border-line bg-line sm:grid-cols-4 xl:grid-cols-8">
      <Cell label="Solution lines" value={formatInt(task.solution_lines)} />
      <Cell label="Commands" value={formatInt(task.commands)} title="Executed commands in the reference solution" />
      <Cell label="Distinct tools" value={formatInt(task.distinct_tools)} />
      <Cell label="Instruction words" value={formatInt(task.instruction_words)} />
      <Cell label="Verifier tests" value={formatInt(task.verifier_tests)} sub={task.verifier_asserts !== null ? `${formatInt(task.verifier_asserts)} asserts` : undefined} />
      <Cell
        label={best ? `pass@${best.k}` : "pass@k"}
        value={formatPct(task.pass_at_k)}
        sub={best ? `${best.successes}/${best.n}` : undefined}
        title={best ? `${best.model}: ${best.successes} of ${best.n} attempts succeeded` : "No solver evaluation"}
      />
      <Cell label="pass@1" value={formatPct(task.pass_at_1)} />
      <Cell label="Mean reward" value={formatScore(task.mean_reward)} sub={task.trial_count > 0 ? `${formatInt(task.trial_count)} trials` : undefined} />
    </dl>
  );
}
