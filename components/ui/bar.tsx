export type BarProps = { value: number; max: number; tone?: "accent" | "ok" | "bad" | "warn" | "muted"; label?: string };

const FILL = { accent: "fill-accent", ok: "fill-ok", bad: "fill-bad", warn: "fill-warn", muted: "fill-faint" } as const;

/**
 * A small horizontal bar. SVG attributes rather than an inline `style` width, so it renders the
 * same under a strict CSP.
 */
export function Bar({ value, max, tone = "accent", label }: BarProps) {
  const pct = max > 0 ? Math.max(0, Math.min(100, (value / max) * 100)) : 0;
  return (
    <svg className="block h-1.5 w-full overflow-hidden rounded-full" role={label ? "img" : undefined} aria-label={label} aria-hidden={label ? undefined : true} preserveAspectRatio="none" viewBox="0 0 100 6">
      <rect x="0" y="0" width="100" height="6" className="fill-surface-3" />
      <rect x="0" y="0" width={pct} height="6" className={FILL[tone]} />
    </svg>
  );
}
