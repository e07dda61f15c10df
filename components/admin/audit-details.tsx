import { VisibleText } from "@/components/code/visible-text";

function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return String(value);
  return JSON.stringify(value) ?? String(value);
}

export type AuditDetailsProps = { details: Record<string, unknown> | null };

/** `key=value` pairs as text; values were written by whoever triggered the entry (even a failed sign-in). */
export function AuditDetails({ details }: AuditDetailsProps) {
  const entries = details && typeof details === "object" ? Object.entries(details) : [];
  if (entries.length === 0) return <span className="text-faint">—</span>;
  return (
    <span className="flex flex-wrap gap-x-2.5 gap-y-0.5 font-mono text-2xs">
      {entries.map(([key, value]) => (
        <span key={key} className="min-w-0 break-all">
          <span className="text-faint">
            <VisibleText text={key} />=
          </span>
          <span className="text-fg">
            <VisibleText text={show(value)} />
          </span>
        </span>
      ))}
    </span>
  );
}
