"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FormError, linkButtonClass } from "@/components/auth/form-controls";
import { RoleSelect } from "@/components/auth/role-select";
import { VisibleText } from "@/components/code/visible-text";
import { Badge } from "@/components/ui/badge";
import type { Role } from "@/lib/domain";
import { adminKeys, type PersonJson, resetPassword, updatePerson } from "@/lib/query/admin";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { ConfirmButton } from "./confirm-button";
import { DateText } from "./date-text";

type Action = { kind: "role"; role: Role } | { kind: "active"; active: boolean } | { kind: "reset" };

export type PersonRowProps = {
  person: PersonJson;
  isSelf: boolean;
  onPassword: (shown: { email: string; password: string }) => void;
};

export function PersonRow({ person, isSelf, onPassword }: PersonRowProps) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: async (action: Action) => {
      if (action.kind === "reset") return (await resetPassword(person.id)).password;
      await updatePerson(person.id, action.kind === "role" ? { role: action.role } : { active: action.active });
      return null;
    },
    onSuccess: (password) => {
      if (password !== null) onPassword({ email: person.email, password });
    },
    // Also after a refusal: the row shows the server's state again.
    onSettled: () => invalidateAfterWrite(queryClient, { queryKey: adminKeys.people }),
  });
  const busy = change.isPending;
  const pendingKind = busy ? change.variables.kind : null;

  return (
    <>
      <tr className={`border-b border-line last:border-b-0 ${person.active ? "" : "text-muted"}`}>
        <td className="px-2 py-1.5">
          <div className="flex min-w-0 items-center gap-1.5">
            <span className="truncate font-medium" title={person.email}>
              <VisibleText text={person.email} />
            </span>
            {isSelf && <Badge tone="neutral">you</Badge>}
          </div>
          {person.name && person.name !== person.email && (
            <div className="truncate text-2xs text-muted">
              <VisibleText text={person.name} />
            </div>
          )}
        </td>
        <td className="px-2 py-1">
          <RoleSelect
            aria-label={`Role of ${person.email}`}
            value={pendingKind === "role" && change.variables?.kind === "role" ? change.variables.role : person.role}
            disabled={busy}
            onChange={(role) => role !== person.role && change.mutate({ kind: "role", role })}
            compact
          />
        </td>
        <td className="px-2 py-1.5">{person.active ? <Badge tone="ok">active</Badge> : <Badge tone="neutral">deactivated</Badge>}</td>
        <td className="px-2 py-1.5">
          <DateText iso={person.last_sign_in_at} empty="never" />
        </td>
        <td className="px-2 py-1.5 text-right font-mono tabular-nums">{person.sessions}</td>
        <td className="px-2 py-1.5">
          <DateText iso={person.created_at} />
        </td>
        <td className="px-2 py-1">
          <div className="flex items-center justify-end gap-1">
            {person.active && (
              <ConfirmButton
                label="Reset password"
                question="New password, sign them out?"
                confirmLabel="Reset"
                pending={pendingKind === "reset"}
                onConfirm={() => change.mutate({ kind: "reset" })}
              />
            )}
            {person.active ? (
              <ConfirmButton
                label="Deactivate"
                question="Deactivate and sign out?"
                confirmLabel="Deactivate"
                pending={pendingKind === "active"}
                onConfirm={() => change.mutate({ kind: "active", active: false })}
              />
            ) : (
              <button type="button" disabled={busy} onClick={() => change.mutate({ kind: "active", active: true })} className={linkButtonClass}>
                {pendingKind === "active" ? "Working…" : "Reactivate"}
              </button>
            )}
          </div>
        </td>
      </tr>
      {change.isError && (
        <tr className="border-b border-line">
          <td colSpan={7} className="px-2 pb-1.5">
            <FormError message={`${person.email}: ${change.error.message}`} />
          </td>
        </tr>
      )}
    </>
  );
}
