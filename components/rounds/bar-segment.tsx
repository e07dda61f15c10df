"use client";

import type { KeyboardEvent } from "react";

export type BarSegmentProps = {
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
  /** Accessible name, e.g. "Round 10: 20 accepted — open these tasks". */
  label: string;
  href: string | null;
  onOpen: (href: string) => void;
};

/** One bar segment that is also a link to the tasks it counts (mouse and keyboard). */
export function BarSegment({ x, y, width, height, fill, label, href, onOpen }: BarSegmentProps) {
  if (!(height > 0) || !(width > 0)) return null;
  const rect = <rect x={x} y={y} width={width} height={height} fill={fill} stroke="var(--surface)" strokeWidth={0.5} />;
  if (!href) return <g aria-label={label}>{rect}</g>;
  const open = () => onOpen(href);
  return (
    <g
      role="link"
      tabIndex={0}
      aria-label={label}
      data-href={href}
      className="cursor-pointer outline-none hover:opacity-80 focus-visible:opacity-70"
      onClick={open}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          open();
        }
      }}
    >
      {rect}
    </g>
  );
}
