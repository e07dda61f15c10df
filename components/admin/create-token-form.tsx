"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Field, FormError, inputClass, primaryButtonClass } from "@/components/auth/form-controls";
import { RoleSelect } from "@/components/auth/role-select";
import type { Role } from "@/lib/domain";
import { adminKeys, createToken } from "@/lib/query/admin";
import { invalidateAfterWrite } from "@/lib/query/invalidate";

export type CreateTokenFormProps = { onCreated: (created: { name: string; token: string }) => void };

export function CreateTokenForm({ onCreated }: CreateTokenFormProps) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>("viewer");
  const create = useMutation({
    mutationFn: createToken,
    onSuccess: (created) => {
      void invalidateAfterWrite(queryClient, { queryKey: adminKeys.tokens });
      onCreated({ name: created.name, token: created.token });
    },
  });

  return (
    <form
      aria-labelledby="create-token-title"
      className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2.5"
      onSubmit={(e) => {
        e.preventDefault();
        if (create.isPending) return;
        const form = e.currentTarget;
        const name = String(new FormData(form).get("name") ?? "").trim();
        create.mutate({ name, role }, { onSuccess: () => form.reset() });
      }}
    >
      <h2 id="create-token-title" className="text-xs font-semibold">
        Create a token
      </h2>
      <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
        <Field label="Name" className="w-64">
          {(id) => <input id={id} name="name" required maxLength={100} autoComplete="off" placeholder="e.g. nightly import" className={inputClass} />}
        </Field>
        <Field label="Role">{(id) => <RoleSelect id={id} value={role} onChange={setRole} />}</Field>
        <button type="submit" disabled={create.isPending} className={primaryButtonClass}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
        <p className="basis-full text-2xs text-faint sm:basis-auto sm:pb-1.5">For scripts and the CLI: sent as a Bearer header, bounded by its role.</p>
      </div>
      <FormError message={create.error?.message} />
    </form>
  );
}
