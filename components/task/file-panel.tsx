import { CodeView } from "@/components/code/code-view";
import { VisibleText } from "@/components/code/visible-text";
import { formatBytes, formatInt } from "@/lib/format/number";
import type { HighlightedCode } from "@/lib/text/highlight";

export type FilePanelProps = {
  taskId: number;
  path: string;
  size: number;
  hash: string;
  language: string;
  /** null for a binary file (stored base64). */
  code: HighlightedCode | null;
};

export function rawFileHref(taskId: number, path: string): string {
  return `/api/v1/tasks/${taskId}/files/${path.split("/").map(encodeURIComponent).join("/")}`;
}

export function FilePanel({ taskId, path, size, hash, language, code }: FilePanelProps) {
  const notes: string[] = [];
  if (code && code.highlightedLines > 0 && code.highlightedLines < code.lines.length) {
    notes.push(`highlighted the first ${formatInt(code.highlightedLines)} lines`);
  }
  if (code && code.clippedLines > 0) notes.push(`${formatInt(code.clippedLines)} long line${code.clippedLines === 1 ? "" : "s"} cut`);
  return (
    <div className="flex min-w-0 flex-col">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface-2 px-3 py-1.5 text-xs">
        <span className="min-w-0 truncate font-mono font-medium">
          <VisibleText text={path} />
        </span>
        <span className="text-muted">{language}</span>
        {code && <span className="text-muted tabular-nums">{formatInt(code.lines.length)} lines</span>}
        <span className="text-muted tabular-nums">{formatBytes(size)}</span>
        <span className="font-mono text-2xs text-faint" title={hash}>
          {hash.slice(0, 10)}
        </span>
        {notes.length > 0 && <span className="text-warn">{notes.join(" · ")}</span>}
        <a href={rawFileHref(taskId, path)} download className="ml-auto rounded px-1.5 text-accent hover:underline">
          Download raw
        </a>
      </div>
      {code ? (
        <CodeView lines={code.lines} label={`Contents of ${path}`} anchors />
      ) : (
        <p className="px-4 py-6 text-xs text-muted">Binary file ({formatBytes(size)}). Download it to inspect.</p>
      )}
    </div>
  );
}
