import Link from "next/link";
import { Bar } from "@/components/ui/bar";
import type { RoundStatJson } from "@/lib/api/types";
import { formatInt, formatPct, formatScore, formatStat, share } from "@/lib/format/number";

export type RoundTableProps = { run: string; rounds: RoundStatJson[]; solverK: number | null };

const th = "px-2 py-1.5 font-medium whitespace-nowrap";
const thNum = `${th} text-right`;
const td = "px-2 py-1 text-right tabular-nums whitespace-nowrap";

/** Counts by status and the per-round medians, one row per round; a row opens its tasks. */
export function RoundTable({ run, rounds, solverK }: RoundTableProps) {
  const tasksHref = (round: number, status?: string) =>
    `/tasks?${new URLSearchParams({ run, round: String(round), ...(status ? { status } : {}) }).toString()}`;
  return (
    <div className="overflow-x-auto">
      <table className="w-full border-collapse font-mono text-xs">
        <caption className="sr-only">Per-round counts and medians for {run}</caption>
        <thead className="border-b border-line text-2xs text-muted">
          <tr>
            <th scope="col" className={`${th} text-left`}>Round</th>
            <th scope="col" className={thNum}>Candidates</th>
            <th scope="col" className={thNum}>Accepted</th>
            <th scope="col" className={thNum}>Rejected</th>
            <th scope="col" className={`${th} w-32 text-left`}>Yield</th>
            <th scope="col" className={thNum} title="Median reference solution lines">Sol. lines</th>
            <th scope="col" className={thNum} title="Median executed commands">Cmds</th>
            <th scope="col" className={thNum} title="Median distinct CLI tools">Tools</th>
            <th scope="col" className={thNum} title="Median instruction words">Words</th>
            <th scope="col" className={thNum} title="Median verifier tests">Tests</th>
            <th scope="col" className={thNum}>{solverK ? `pass@${solverK}` : "pass@k"}</th>
            <th scope="col" className={thNum} title="Mean partial credit">Reward</th>
          </tr>
        </thead>
        <tbody>
          {rounds.map((r) => {
            const y = share(r.accepted, r.candidates);
            return (
              <tr key={r.round} className="border-b border-line/60 last:border-0 hover:bg-surface-2">
                <td className="px-2 py-1 text-left">
                  <Link href={tasksHref(r.round)} className="text-accent hover:underline">
                    R{r.round}
                  </Link>
                </td>
                <td className={td}>{formatInt(r.candidates)}</td>
                <td className={td}>
                  <Link href={tasksHref(r.round, "accepted")} className="hover:underline">{formatInt(r.accepted)}</Link>
                </td>
                <td className={`${td} text-muted`}>
                  <Link href={tasksHref(r.round, "rejected")} className="hover:underline">{formatInt(r.rejected)}</Link>
                </td>
                <td className="px-2 py-1">
                  <div className="flex items-center gap-2">
                    <div className="w-16" title={`${formatInt(r.accepted)} of ${formatInt(r.candidates)} candidates accepted`}>
                      <Bar value={r.accepted} max={r.candidates} tone="ok" />
                    </div>
                    <span className="w-9 text-right tabular-nums text-muted">{formatPct(y)}</span>
                  </div>
                </td>
                <td className={td}>{formatStat(r.median_solution_lines)}</td>
                <td className={td}>{formatStat(r.median_commands)}</td>
                <td className={td}>{formatStat(r.median_distinct_tools)}</td>
                <td className={td}>{formatStat(r.median_instruction_words)}</td>
                <td className={td}>{formatStat(r.median_verifier_tests)}</td>
                <td className={td}>{formatPct(r.pass_at_k)}</td>
                <td className={td}>{formatScore(r.mean_reward)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
