import type { ReactNode } from "react";

export type ToolButtonProps = {
  /** The tooltip; also the accessible name when the content is only a symbol. */
  label: string;
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
  pressed?: boolean;
  iconOnly?: boolean;
};

/** The viewer's small bordered buttons (as tall as the search field). */
export function ToolButton({ label, onClick, children, disabled, pressed, iconOnly }: ToolButtonProps) {
  return (
    <button
      type="button"
      aria-label={iconOnly ? label : undefined}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className={`inline-flex h-7 shrink-0 items-center gap-1.5 rounded-md border text-xs whitespace-nowrap disabled:opacity-40 ${iconOnly ? "w-7 justify-center" : "px-2"} ${
        pressed ? "border-accent/50 bg-accent-soft font-medium text-accent" : "border-line-strong bg-surface text-fg enabled:hover:bg-surface-2"
      }`}
    >
      {children}
    </button>
  );
}
