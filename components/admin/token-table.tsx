"use client";

import { AdminTable } from "./admin-table";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FormError } from "@/components/auth/form-controls";
import { RoleBadge } from "@/components/auth/role-badge";
import { VisibleText } from "@/components/code/visible-text";
import { Badge } from "@/components/ui/badge";
import { adminKeys, revokeToken, type TokenJson } from "@/lib/query/admin";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { ConfirmButton } from "./confirm-button";
import { DateText } from "./date-text";

const HEAD = [
  ["Name", "w-auto text-left"],
  ["Role", "w-24 text-left"],
  ["Prefix", "w-32 text-left"],
  ["Created by", "w-52 text-left"],
  ["Created", "w-32 text-left"],
  ["Last used", "w-32 text-left"],
  ["Status", "w-40 text-left"],
  ["Actions", "w-52 text-right"],
] as const;

function TokenRow({ token }: { token: TokenJson }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeToken(token.id),
    onSettled: () => invalidateAfterWrite(queryClient, { queryKey: adminKeys.tokens }),
  });
  const revoked = token.revoked_at !== null;
  return (
    <>
      <tr className={`border-b border-line last:border-b-0 ${revoked ? "text-muted" : ""}`}>
        <td className="truncate px-2 py-1.5 font-medium" title={token.name}>
          <VisibleText text={token.name} />
        </td>
        <td className="px-2 py-1.5">
          <RoleBadge role={token.role} />
        </td>
        <td className="px-2 py-1.5 font-mono text-2xs text-muted">
          <VisibleText text={token.prefix} />…
        </td>
        <td className="truncate px-2 py-1.5 text-muted" title={token.created_by ?? undefined}>
          {token.created_by ? <VisibleText text={token.created_by} /> : <span className="text-faint">—</span>}
        </td>
        <td className="px-2 py-1.5">
          <DateText iso={token.created_at} />
        </td>
        <td className="px-2 py-1.5">
          <DateText iso={token.last_used_at} empty="never" />
        </td>
        <td className="px-2 py-1.5">
          {revoked ? (
            <span className="inline-flex items-center gap-1.5">
              <Badge tone="neutral">revoked</Badge>
              <DateText iso={token.revoked_at} />
            </span>
          ) : (
            <Badge tone="ok">active</Badge>
          )}
        </td>
        <td className="px-2 py-1 text-right">
          {!revoked && (
            <ConfirmButton label="Revoke" question="Scripts using it stop." confirmLabel="Revoke" pending={revoke.isPending} onConfirm={() => revoke.mutate()} />
          )}
        </td>
      </tr>
      {revoke.isError && (
        <tr className="border-b border-line">
          <td colSpan={HEAD.length} className="px-2 pb-1.5">
            <FormError message={`${token.name}: ${revoke.error.message}`} />
          </td>
        </tr>
      )}
    </>
  );
}

export type TokenTableProps = { tokens: TokenJson[] };

export function TokenTable({ tokens }: TokenTableProps) {
  if (tokens.length === 0) {
    return <p className="rounded-lg border border-dashed border-line-strong bg-surface px-4 py-8 text-center text-[13px] text-muted">No API tokens yet.</p>;
  }
  return (
    <AdminTable caption="API tokens, active first" columns={HEAD} minWidth="min-w-[1000px]">
      {tokens.map((t) => (
        <TokenRow key={t.id} token={t} />
      ))}
    </AdminTable>
  );
}
