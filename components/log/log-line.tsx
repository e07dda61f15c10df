import { memo, useMemo, type MouseEvent } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { ansiSegments } from "@/lib/log/ansi";
import { segmentLook } from "@/lib/log/ansi-style";
import { LINE_CAP } from "@/lib/log/lines";
import { type MatchRange, markSegments, trimToLetters } from "@/lib/log/highlight";
import type { LineMatch } from "@/lib/log/matches";
import { formatInt } from "@/lib/format/number";

export type LogLineProps = {
  /** 1-based. */
  number: number;
  /** undefined while its window loads. */
  text: string | undefined;
  /** Full length in characters when the server cut the line at LINE_CAP. */
  clippedChars?: number;
  matches?: readonly LineMatch[];
  /** Start offset of the current match when it is on this line. */
  currentStart?: number;
  /** Highlight only the letters of each match (the "first error" search). */
  trimMatches?: boolean;
  selected: boolean;
  wrap: boolean;
  gutterWidth: string;
  downloadUrl: string;
  onSelect: (line: number) => void;
};

export const LogLine = memo(function LogLine(props: LogLineProps) {
  const { number, text, clippedChars, matches, currentStart, trimMatches, selected, wrap, gutterWidth, downloadUrl, onSelect } = props;
  const pieces = useMemo(() => {
    if (text === undefined) return null;
    const segments = ansiSegments(text);
    if (!matches) return segments;
    const ranges: MatchRange[] = matches.map((m) => ({ start: m.start, end: m.end, current: m.start === currentStart }));
    return markSegments(segments, trimMatches ? trimToLetters(ranges, segments.map((seg) => seg.text).join("")) : ranges);
  }, [text, matches, currentStart, trimMatches]);

  const select = (e: MouseEvent<HTMLAnchorElement>) => {
    // Modified clicks keep their meaning (new tab, copy link); a plain click selects in place.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onSelect(number);
  };

  return (
    <div
      className={`flex ${wrap ? "min-h-5 w-full" : "h-5 min-w-full w-max"} ${selected ? "bg-accent-soft" : "hover:bg-surface-2"}`}
      data-line={number}
      aria-current={selected ? "location" : undefined}
    >
      <a
        href={`#L${number}`}
        onClick={select}
        aria-label={`Line ${number}`}
        className={`sticky left-0 z-[1] shrink-0 border-r pr-2 pl-3 text-right tabular-nums select-none hover:text-fg hover:underline ${
          selected ? "border-accent/50 bg-accent-soft font-medium text-accent" : "border-line bg-surface text-faint"
        }`}
        style={{ width: gutterWidth }}
      >
        {number}
      </a>
      <span className={`pr-4 pl-3 ${wrap ? "min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]" : "whitespace-pre"}`}>
        {clippedChars !== undefined && (
          <span
            className="mr-2 rounded bg-warn-soft px-1 font-sans text-2xs text-warn select-none"
            title={`This line has ${formatInt(clippedChars)} characters; the first ${formatInt(LINE_CAP)} are shown`}
          >
            cut
          </span>
        )}
        {pieces === null ? (
          <span className="text-faint select-none" aria-label="loading">
            ·
          </span>
        ) : (
          pieces.map((p, i) => <Piece key={i} piece={p} />)
        )}
        {clippedChars !== undefined && (
          <span className="tk-elided select-none">
            … line cut at {formatInt(LINE_CAP)} of {formatInt(clippedChars)} characters ·{" "}
            <a href={downloadUrl} className="text-accent not-italic hover:underline">
              raw log
            </a>
          </span>
        )}
      </span>
    </div>
  );
});

function Piece({ piece }: { piece: ReturnType<typeof markSegments>[number] }) {
  const look = segmentLook(piece);
  if (piece.mark) {
    // The mark paints its own background; the current one its own text colour too.
    const style = look.style?.color && piece.mark === "match" ? { color: look.style.color } : undefined;
    return (
      <mark
        className={["log-match", piece.mark === "current" && "log-match-current", look.className].filter(Boolean).join(" ")}
        style={style}
        data-current={piece.mark === "current" || undefined}
      >
        <VisibleText text={piece.text} />
      </mark>
    );
  }
  if (!look.className && !look.style) return <VisibleText text={piece.text} />;
  return (
    <span className={look.className || undefined} style={look.style}>
      <VisibleText text={piece.text} />
    </span>
  );
}
