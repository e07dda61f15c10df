"use client";

import { useState } from "react";
import { changePassword, MIN_PASSWORD_LENGTH } from "./auth-api";
import { Field, FormError, inputClass, primaryButtonClass } from "./form-controls";

/** Checked here first (length, match) so the common mistakes need no round trip. */
function validate(next: string, confirm: string): string | null {
  if (next.length < MIN_PASSWORD_LENGTH) return `The new password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (next !== confirm) return "The new password and its confirmation differ.";
  return null;
}

export function ChangePasswordForm() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  return (
    <form
      aria-labelledby="change-password-title"
      className="flex flex-col gap-2.5"
      onSubmit={async (e) => {
        e.preventDefault();
        if (pending) return;
        const form = e.currentTarget;
        const data = new FormData(form);
        const current = String(data.get("current") ?? "");
        const next = String(data.get("new") ?? "");
        setDone(false);
        const invalid = validate(next, String(data.get("confirm") ?? ""));
        if (invalid) {
          setError(invalid);
          return;
        }
        setPending(true);
        setError(null);
        const result = await changePassword(current, next);
        setPending(false);
        if (!result.ok) {
          setError(result.message);
          return;
        }
        form.reset();
        setDone(true);
      }}
    >
      <h2 id="change-password-title" className="text-[13px] font-semibold">
        Change password
      </h2>
      <Field label="Current password">
        {(id) => <input id={id} name="current" type="password" required autoComplete="current-password" className={inputClass} />}
      </Field>
      <Field label="New password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
        {(id, hintId) => (
          <input id={id} name="new" type="password" required autoComplete="new-password" aria-describedby={hintId} className={inputClass} />
        )}
      </Field>
      <Field label="Confirm new password">
        {(id) => <input id={id} name="confirm" type="password" required autoComplete="new-password" className={inputClass} />}
      </Field>
      <FormError message={error} />
      {done && (
        <p role="status" className="rounded-md border border-ok/40 bg-ok-soft px-2.5 py-1.5 text-xs text-ok">
          Password changed. Other sessions were signed out.
        </p>
      )}
      <div>
        <button type="submit" disabled={pending} className={primaryButtonClass}>
          {pending ? "Changing…" : "Change password"}
        </button>
      </div>
    </form>
  );
}
