import { formatDateTime } from "@/lib/format/date";

export type DateTextProps = { iso: string | null | undefined; empty?: string };

/** A UTC timestamp as compact text ("2025-11-30 17:59"); `empty` when there is none. */
export function DateText({ iso, empty = "—" }: DateTextProps) {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return <span className="text-2xs text-faint">{empty}</span>;
  return (
    <time dateTime={date.toISOString()} title={formatDateTime(iso)} className="font-mono text-2xs whitespace-nowrap tabular-nums text-muted">
      {formatDateTime(iso).replace(" UTC", "")}
    </time>
  );
}
