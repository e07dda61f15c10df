import { memo } from "react";
import { type CodeLine as Line, toneClass } from "@/lib/text/tones";
import { VisibleText } from "./visible-text";

export type CodeLineProps = { number: number; tokens: Line; gutter: string };

export const CodeLine = memo(function CodeLine({ number, tokens, gutter }: CodeLineProps) {
  return (
    <div className="flex h-5 min-w-max hover:bg-surface-2">
      <span
        aria-hidden="true"
        className={`sticky left-0 shrink-0 border-r border-line bg-surface pr-2 pl-3 text-right text-faint select-none ${gutter}`}
      >
        {number}
      </span>
      <span className="pr-4 pl-3 whitespace-pre">
        {tokens.map(([tone, text], i) => (
          <span key={i} className={toneClass(tone)}>
            <VisibleText text={text} />
          </span>
        ))}
      </span>
    </div>
  );
});
