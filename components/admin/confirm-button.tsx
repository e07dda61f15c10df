"use client";

import { useEffect, useRef, useState } from "react";
import { dangerButtonClass, linkButtonClass } from "@/components/auth/form-controls";

export type ConfirmButtonProps = {
  label: string;
  /** The question shown in place of the button, e.g. "Revoke this token?". */
  question: string;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: () => void;
};

/** A two-step button for actions that cannot be undone: no browser dialog, Escape cancels. */
export function ConfirmButton({ label, question, confirmLabel, pending = false, onConfirm }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (returnFocus.current) {
      returnFocus.current = false;
      triggerRef.current?.focus();
    }
  }, [asking]);

  const cancel = () => {
    returnFocus.current = true;
    setAsking(false);
  };

  if (!asking) {
    return (
      <button ref={triggerRef} type="button" disabled={pending} onClick={() => setAsking(true)} className={linkButtonClass}>
        {pending ? "Working…" : label}
      </button>
    );
  }
  return (
    <span
      role="group"
      aria-label={question}
      className="inline-flex items-center gap-1"
      onKeyDown={(e) => {
        if (e.key === "Escape") cancel();
      }}
    >
      <span className="text-2xs text-muted">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className={`${dangerButtonClass} h-6 px-2`}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" onClick={cancel} className={linkButtonClass}>
        Cancel
      </button>
    </span>
  );
}
