// Small form pieces shared by the sign-in, account and admin pages (same sizes as the filters).
import { type ReactNode, useId } from "react";

export const inputClass =
  "h-7 w-full rounded-md border border-line bg-surface px-2 text-[13px] text-fg placeholder:text-faint hover:border-line-strong disabled:opacity-60";
export const selectClass =
  "h-7 rounded-md border border-line bg-surface px-1.5 text-[13px] text-fg hover:border-line-strong disabled:cursor-not-allowed disabled:opacity-60";
export const buttonClass =
  "inline-flex h-7 items-center justify-center gap-1 rounded-md border border-line bg-surface px-2.5 text-xs whitespace-nowrap text-fg hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:bg-surface";
export const primaryButtonClass =
  "inline-flex h-7 items-center justify-center gap-1 rounded-md bg-accent px-3 text-xs font-medium whitespace-nowrap text-accent-fg hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50";
export const dangerButtonClass =
  "inline-flex h-7 items-center justify-center gap-1 rounded-md border border-bad/40 bg-bad-soft px-2.5 text-xs font-medium whitespace-nowrap text-bad hover:border-bad disabled:cursor-not-allowed disabled:opacity-50";
export const linkButtonClass = "h-6 rounded px-1.5 text-xs whitespace-nowrap text-muted hover:bg-surface-2 hover:text-fg disabled:cursor-not-allowed disabled:opacity-50";

export type FieldProps = {
  label: string;
  hint?: ReactNode;
  className?: string;
  children: (id: string, hintId: string | undefined) => ReactNode;
};

/** A label above its control; the hint is tied to the control with aria-describedby. */
export function Field({ label, hint, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={`flex flex-col gap-0.5 ${className ?? ""}`}>
      <label htmlFor={id} className="text-2xs text-muted">
        {label}
      </label>
      {children(id, hintId)}
      {hint && (
        <p id={hintId} className="text-2xs text-faint">
          {hint}
        </p>
      )}
    </div>
  );
}

export type FormErrorProps = { message: string | null | undefined; className?: string };

export function FormError({ message, className }: FormErrorProps) {
  if (!message) return null;
  return (
    <p role="alert" className={`rounded-md border border-bad/40 bg-bad-soft px-2.5 py-1.5 text-xs break-words text-bad ${className ?? ""}`}>
      {message}
    </p>
  );
}
