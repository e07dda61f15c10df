import Link from "next/link";
import type { RunJson } from "@/lib/api/types";
import { formatDateTime } from "@/lib/format/date";
import { formatInt } from "@/lib/format/number";

export type RunsTableProps = { runs: RunJson[] };

const th = "px-3 py-1.5 font-medium";
const thNum = `${th} text-right`;
const td = "px-3 py-1.5 text-right font-mono tabular-nums";

export function RunsTable({ runs }: RunsTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table className="w-full border-collapse text-xs">
        <caption className="sr-only">All runs</caption>
        <thead className="border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            <th scope="col" className={`${th} text-left`}>Run</th>
            <th scope="col" className={`${th} text-left`}>Format</th>
            <th scope="col" className={thNum}>Seeds</th>
            <th scope="col" className={thNum}>Rounds</th>
            <th scope="col" className={thNum}>Accepted</th>
            <th scope="col" className={thNum}>Rejected</th>
            <th scope="col" className={thNum}>Trials</th>
            <th scope="col" className={thNum}>Ingested</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} className="border-b border-line/60 last:border-0 hover:bg-surface-2">
              <td className="px-3 py-1.5 font-medium">
                <Link href={`/?run=${encodeURIComponent(r.name)}`} className="text-accent hover:underline">
                  {r.name}
                </Link>
              </td>
              <td className="px-3 py-1.5 text-muted">{r.format}</td>
              <td className={td}>{formatInt(r.seeds)}</td>
              <td className={td}>{formatInt(r.rounds)}</td>
              <td className={td}>{formatInt(r.accepted)}</td>
              <td className={`${td} text-muted`}>{formatInt(r.rejected)}</td>
              <td className={td}>{formatInt(r.trials)}</td>
              <td className={`${td} text-muted`}>{formatDateTime(r.ingested_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
