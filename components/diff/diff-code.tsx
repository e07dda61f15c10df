import { memo } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { toneClass } from "@/lib/text/tones";
import type { Seg } from "./display-rows";

export type DiffCodeProps = { segs: readonly Seg[]; op: 0 | 1 | 2; eol: 0 | 1 | 2 };

const MARK = { 0: "", 1: "rounded-sm bg-bad/25", 2: "rounded-sm bg-ok/25" } as const;

/** A line's tokens as spans, word changes marked; CRLF and a missing final newline shown. */
export const DiffCode = memo(function DiffCode({ segs, op, eol }: DiffCodeProps) {
  return (
    <>
      {segs.map(([tone, text, changed], i) => (
        <span key={i} className={`${toneClass(tone)} ${changed ? MARK[op] : ""}`}>
          <VisibleText text={text} />
        </span>
      ))}
      {eol === 1 && (
        <span className="inv-mark" role="img" aria-label="CRLF line ending" title="This line ends with CR LF">
          CRLF
        </span>
      )}
      {eol === 2 && (
        <span className="ml-2 text-2xs text-faint italic" title="No newline at end of file">
          ⊘ no newline at end
        </span>
      )}
    </>
  );
});
