import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import { formatBytes, formatInt } from "@/lib/format/number";
import { logPageUrl } from "@/lib/query/logs";

export type LogTabsProps = {
  trialId: number;
  current: string;
  logs: readonly { name: string; lines: number; bytes: number }[];
};

/** Every log of the trial, the open one marked; names come from the trial's files, shown inert. */
export function LogTabs({ trialId, current, logs }: LogTabsProps) {
  return (
    <nav aria-label="Logs of this trial" className="flex min-w-0 overflow-x-auto border-b border-line bg-surface-2 px-1 text-xs">
      {logs.map((log) => {
        const active = log.name === current;
        return (
          <Link
            key={log.name}
            href={logPageUrl({ trialId, name: log.name })}
            aria-current={active ? "page" : undefined}
            title={`${formatInt(log.lines)} lines · ${formatBytes(log.bytes)}`}
            className={`-mb-px flex shrink-0 items-baseline gap-1.5 border-b-2 px-2.5 py-1.5 whitespace-nowrap ${
              active ? "border-accent font-medium text-fg" : "border-transparent text-muted hover:text-fg"
            }`}
          >
            <span className="font-mono">
              <VisibleText text={log.name} />
            </span>
            <span className="text-2xs text-faint tabular-nums">{formatInt(log.lines)}</span>
          </Link>
        );
      })}
    </nav>
  );
}
