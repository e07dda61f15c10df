import { VisibleText } from "@/components/code/visible-text";
import { formatInt } from "@/lib/format/number";
import { DiffLink } from "./diff-link";
import type { DiffFilePayload } from "./types";

export type DiffFileNavProps = { files: DiffFilePayload[]; base: string; selected: string | null };

const DOT = { added: "bg-ok", removed: "bg-bad", modified: "bg-warn", unchanged: "bg-surface-3" } as const;

/** The pair's files with their change counts; one file at a time or all of them, in the chosen layout. */
export function DiffFileNav({ files, base, selected }: DiffFileNavProps) {
  const item = (active: boolean) =>
    `flex items-center gap-2 rounded px-2 py-1 text-xs ${active ? "bg-accent-soft text-fg shadow-[inset_2px_0_0_var(--accent)]" : "text-muted hover:bg-surface-2 hover:text-fg"}`;
  const changed = files.filter((f) => f.status !== "unchanged").length;
  return (
    <nav aria-label="Changed files" className="sticky top-14 flex max-h-[calc(100dvh-4.5rem)] flex-col gap-0.5 overflow-y-auto rounded-lg border border-line bg-surface p-1">
      <DiffLink href={base} scroll={false} aria-current={selected === null ? "page" : undefined} className={item(selected === null)}>
        <span className="flex-1">All files</span>
        <span className="font-mono text-2xs text-faint tabular-nums">
          {changed}/{files.length}
        </span>
      </DiffLink>
      {files.map((f) => {
        const slash = f.path.lastIndexOf("/");
        return (
          <DiffLink
            key={f.path}
            href={`${base}${base.includes("?") ? "&" : "?"}file=${encodeURIComponent(f.path)}`}
            scroll={false}
            aria-current={selected === f.path ? "page" : undefined}
            title={`${f.path} · ${f.status}`}
            className={`${item(selected === f.path)} font-mono ${f.status === "unchanged" ? "opacity-60" : ""}`}
          >
            <span aria-hidden="true" className={`size-1.5 shrink-0 rounded-full ${DOT[f.status]}`} />
            <span className="min-w-0 flex-1 truncate">
              {slash >= 0 && (
                <span className="text-faint">
                  <VisibleText text={f.path.slice(0, slash + 1)} />
                </span>
              )}
              <VisibleText text={f.path.slice(slash + 1)} />
            </span>
            {f.status !== "unchanged" && (
              <span className="shrink-0 text-2xs tabular-nums">
                <span className="text-ok">+{formatInt(f.added)}</span> <span className="text-bad">−{formatInt(f.removed)}</span>
              </span>
            )}
          </DiffLink>
        );
      })}
    </nav>
  );
}
