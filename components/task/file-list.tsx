import Link from "next/link";
import { VisibleText } from "@/components/code/visible-text";
import type { TaskFileJson } from "@/lib/api/types";
import { formatBytes } from "@/lib/format/number";

export type FileListProps = { taskId: number; files: TaskFileJson[]; selected: string | null };

export function fileHref(taskId: number, path: string): string {
  return `/tasks/${taskId}?file=${encodeURIComponent(path)}`;
}

export function FileList({ taskId, files, selected }: FileListProps) {
  return (
    <nav aria-label="Files" className="max-h-[75vh] overflow-y-auto border-b border-line py-1 md:border-r md:border-b-0">
      <ul>
        {files.map((f) => {
          const slash = f.path.lastIndexOf("/");
          const active = f.path === selected;
          return (
            <li key={f.path}>
              <Link
                href={fileHref(taskId, f.path)}
                scroll={false}
                aria-current={active ? "page" : undefined}
                title={`${f.path} · ${formatBytes(f.size)}`}
                className={`flex items-baseline justify-between gap-2 px-3 py-1 font-mono text-xs ${
                  active ? "bg-accent-soft text-fg shadow-[inset_2px_0_0_var(--accent)]" : "text-muted hover:bg-surface-2 hover:text-fg"
                }`}
              >
                <span className="min-w-0 truncate">
                  {slash >= 0 && (
                    <span className="text-faint">
                      <VisibleText text={f.path.slice(0, slash + 1)} />
                    </span>
                  )}
                  <VisibleText text={f.path.slice(slash + 1)} />
                </span>
                <span className="shrink-0 text-2xs text-faint tabular-nums">{formatBytes(f.size)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
