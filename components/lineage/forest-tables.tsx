import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { Bar } from "@/components/ui/bar";
import type { ForestJson, RejectionRow } from "@/db/queries/forest";
import { formatInt, formatPct, share } from "@/lib/format/number";

const th = "px-2 py-1.5 font-medium whitespace-nowrap";
const td = "px-2 py-1 text-right tabular-nums whitespace-nowrap";

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0 rounded-lg border border-line bg-surface">
      <h2 className="border-b border-line bg-surface-2 px-3 py-1.5 text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h2>
      <div className="overflow-x-auto">{children}</div>
    </section>
  );
}

export function SeedTable({ forest }: { forest: ForestJson }) {
  const maxSize = Math.max(1, ...forest.seeds.map((s) => s.size));
  return (
    <Card title="Most productive seeds">
      <table className="w-full border-collapse text-xs">
        <thead className="border-b border-line text-2xs text-muted">
          <tr>
            <th scope="col" className={`${th} text-left`}>Seed</th>
            <th scope="col" className={`${th} text-right`}>Family</th>
            <th scope="col" className={`${th} w-40 text-left`}>Accepted share</th>
            <th scope="col" className={`${th} text-right`}>Max depth</th>
            <th scope="col" className={`${th} text-right`}>Last round</th>
            <th scope="col" className={`${th} text-right`}>Flagged</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {forest.seeds.map((s) => (
            <tr key={s.id} className="border-b border-line/60 last:border-0 hover:bg-surface-2">
              <td className="px-2 py-1">
                <Link href={`/families/${s.id}`} className="text-accent hover:underline">
                  <VisibleText text={s.task_id} />
                </Link>
              </td>
              <td className={td}>
                <div className="flex items-center justify-end gap-2">
                  <div className="w-16">
                    <Bar value={s.size} max={maxSize} tone="accent" />
                  </div>
                  <span className="w-10">{formatInt(s.size)}</span>
                </div>
              </td>
              <td className="px-2 py-1">
                <div className="flex items-center gap-2" title={`${s.accepted} accepted, ${s.rejected} rejected`}>
                  <div className="w-20">
                    <Bar value={s.accepted} max={s.size} tone="ok" />
                  </div>
                  <span className="w-10 text-right text-muted tabular-nums">{formatPct(share(s.accepted, s.size))}</span>
                </div>
              </td>
              <td className={td}>{s.max_depth}</td>
              <td className={td}>{s.max_round ?? "—"}</td>
              <td className={`${td} ${s.flagged > 0 ? "text-warn" : "text-faint"}`}>{formatInt(s.flagged)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

export type RejectionTableProps = { title: string; label: string; rows: RejectionRow[]; href: (key: string | number) => string; format?: (key: string | number) => string };

export function RejectionTable({ title, label, rows, href, format = String }: RejectionTableProps) {
  const maxRate = Math.max(0.0001, ...rows.map((r) => share(r.rejected, r.accepted + r.rejected) ?? 0));
  return (
    <Card title={title}>
      <table className="w-full border-collapse text-xs">
        <thead className="border-b border-line text-2xs text-muted">
          <tr>
            <th scope="col" className={`${th} text-left`}>{label}</th>
            <th scope="col" className={`${th} text-right`}>Candidates</th>
            <th scope="col" className={`${th} text-right`}>Rejected</th>
            <th scope="col" className={`${th} w-36 text-left`}>Rejection rate</th>
            <th scope="col" className={`${th} text-left`}>Top reason</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const total = r.accepted + r.rejected;
            const rate = share(r.rejected, total);
            return (
              <tr key={String(r.key)} className="border-b border-line/60 last:border-0 hover:bg-surface-2">
                <td className="max-w-52 truncate px-2 py-1">
                  <Link href={href(r.key)} className="hover:text-accent hover:underline">
                    <VisibleText text={format(r.key)} />
                  </Link>
                </td>
                <td className={`${td} font-mono`}>{formatInt(total)}</td>
                <td className={`${td} font-mono text-bad`}>{formatInt(r.rejected)}</td>
                <td className="px-2 py-1">
                  <div className="flex items-center gap-2">
                    <div className="w-20">
                      <Bar value={rate ?? 0} max={maxRate} tone="bad" />
                    </div>
                    <span className="w-10 text-right font-mono text-muted tabular-nums">{formatPct(rate)}</span>
                  </div>
                </td>
                <td className="max-w-40 truncate px-2 py-1 font-mono text-2xs text-muted">{r.top_reason ? <VisibleText text={r.top_reason} /> : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}

export function DepthReach({ forest }: { forest: ForestJson }) {
  const max = Math.max(1, ...forest.depth_reach.map((d) => d.families));
  return (
    <Card title="How deep families go">
      <ul className="flex flex-col gap-1 px-3 py-2 text-xs">
        {forest.depth_reach.map((d) => (
          <li key={d.depth} className="grid grid-cols-[4.5rem_minmax(0,1fr)_2.5rem] items-center gap-2">
            <span className="text-muted">depth {d.depth}</span>
            <Bar value={d.families} max={max} tone="accent" />
            <span className="text-right font-mono tabular-nums">{formatInt(d.families)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}
