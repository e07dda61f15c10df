"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { signIn } from "./auth-api";
import { Field, FormError, inputClass, primaryButtonClass } from "./form-controls";

export type SignInFormProps = {
  /** Where to go after signing in: a local path, already checked by the server. */
  next: string;
};

export function SignInForm({ next }: SignInFormProps) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        if (pending) return;
        const data = new FormData(e.currentTarget);
        setPending(true);
        setError(null);
        const result = await signIn(String(data.get("email") ?? "").trim(), String(data.get("password") ?? ""));
        if (result.ok) {
          router.replace(next);
          router.refresh();
          // Stay pending: the page is about to change.
          return;
        }
        setError(result.message);
        setPending(false);
      }}
    >
      <Field label="Email">
        {(id) => <input id={id} name="email" type="email" required autoComplete="username" autoFocus spellCheck={false} className={inputClass} />}
      </Field>
      <Field label="Password">
        {(id) => <input id={id} name="password" type="password" required autoComplete="current-password" className={inputClass} />}
      </Field>
      <FormError message={error} />
      <button type="submit" disabled={pending} aria-busy={pending} className={`${primaryButtonClass} mt-1 w-full`}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
