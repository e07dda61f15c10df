"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Field, FormError, inputClass, primaryButtonClass } from "@/components/auth/form-controls";
import { RoleSelect } from "@/components/auth/role-select";
import type { Role } from "@/lib/domain";
import { addPerson, adminKeys } from "@/lib/query/admin";
import { invalidateAfterWrite } from "@/lib/query/invalidate";

export type AddPersonFormProps = { onCreated: (created: { email: string; password: string }) => void };

export function AddPersonForm({ onCreated }: AddPersonFormProps) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>("viewer");
  const add = useMutation({
    mutationFn: addPerson,
    onSuccess: (created) => {
      void invalidateAfterWrite(queryClient, { queryKey: adminKeys.people });
      onCreated({ email: created.email, password: created.password });
    },
  });

  return (
    <form
      aria-labelledby="add-person-title"
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2.5"
      onSubmit={(e) => {
        e.preventDefault();
        if (add.isPending) return;
        const form = e.currentTarget;
        const data = new FormData(form);
        const name = String(data.get("name") ?? "").trim();
        add.mutate(
          { email: String(data.get("email") ?? "").trim(), ...(name ? { name } : {}), role },
          { onSuccess: () => form.reset() },
        );
      }}
    >
      <h2 id="add-person-title" className="text-xs font-semibold">
        Add a person
      </h2>
      <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <Field label="Email" className="w-64">
          {(id) => <input id={id} name="email" type="email" required maxLength={320} autoComplete="off" spellCheck={false} className={inputClass} />}
        </Field>
        <Field label="Name (optional)" className="w-48">
          {(id) => <input id={id} name="name" maxLength={200} autoComplete="off" className={inputClass} />}
        </Field>
        <Field label="Role">
          {(id) => <RoleSelect id={id} value={role} onChange={setRole} />}
        </Field>
        <button type="submit" disabled={add.isPending} className={primaryButtonClass}>
          {add.isPending ? "Adding…" : "Add person"}
        </button>
        <p className="basis-full text-2xs text-faint sm:basis-auto sm:pb-1.5">They get a one-time password to sign in with.</p>
      </div>
      <FormError message={add.error?.message} />
    </form>
  );
}
