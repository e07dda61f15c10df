import { memo } from "react";
import { type CodeLine as Line, toneClass } from "@/lib/text/tones";
import { VisibleText } from "./visible-text";

export type CodeLineProps = {
  number: number;
  tokens: Line;
  gutter: string;
  /** Give the line the id `L<number>` (a link target). */
  anchor?: boolean;
  /** The line the address names: highlighted (`:target` misses a line reached by a client-side navigation). */
  current?: boolean;
};

export const CodeLine = memo(function CodeLine({ number, tokens, gutter, anchor = false, current = false }: CodeLineProps) {
  return (
    <div
      id={anchor ? `L${number}` : undefined}
      aria-current={current ? "location" : undefined}
      className="flex h-5 min-w-max scroll-mt-24 hover:bg-surface-2 target:bg-mark-soft aria-[current=location]:bg-mark-soft aria-[current=location]:shadow-[inset_3px_0_0_var(--mark)]"
    >
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
