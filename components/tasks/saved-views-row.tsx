"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConfirmButton } from "@/components/admin/confirm-button";
import { FormError, inputClass, linkButtonClass } from "@/components/auth/form-controls";
import type { SavedViewJson } from "@/lib/api/types";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { formatTotal } from "@/lib/tasks/total";
import { removeView, renameView, viewKeys } from "@/lib/query/bulk";

export type SavedViewRowProps = {
  view: SavedViewJson;
  /** The table shows this view's filter now. */
  active: boolean;
  canEdit: boolean;
  onOpen: () => void;
};

/** One saved view: a link to its filter with the count it matches, rename and delete for its owner. */
export function SavedViewRow({ view, active, canEdit, onOpen }: SavedViewRowProps) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(view.name);
  const refresh = () => invalidateAfterWrite(queryClient, { queryKey: viewKeys.all });
  const rename = useMutation({ mutationFn: () => renameView(view.id, name.trim()), onSuccess: () => (setRenaming(false), refresh()) });
  const remove = useMutation({ mutationFn: () => removeView(view.id), onSuccess: refresh });

  if (renaming) {
    return (
      <li className="px-3 py-1.5">
        <form
          className="flex items-center gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) rename.mutate();
          }}
        >
          <input aria-label={`New name for ${view.name}`} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} className={inputClass} autoFocus />
          <button type="submit" disabled={!name.trim() || rename.isPending} className={linkButtonClass}>
            Save
          </button>
          <button type="button" onClick={() => (setRenaming(false), setName(view.name))} className={linkButtonClass}>
            Cancel
          </button>
        </form>
        <FormError message={rename.error?.message} className="mt-1" />
      </li>
    );
  }
  return (
    <li className={`flex items-center gap-2 px-3 py-1 ${active ? "bg-accent/10" : "hover:bg-surface-2"}`}>
      <Link href={`/tasks?${view.query}`} onClick={onOpen} aria-current={active ? "page" : undefined} className="flex min-w-0 flex-1 items-baseline gap-2 py-0.5">
        <span className="truncate font-medium text-fg">{view.name}</span>
        {!view.mine && <span className="truncate text-2xs text-faint">{view.created_by}</span>}
        {!view.shared && <span className="text-2xs text-faint">private</span>}
        <span className="ml-auto tabular-nums text-muted" aria-label={`${view.count ?? "unknown"} tasks`}>
          {view.count === null ? "—" : formatTotal(view.count, view.count_is_estimate)}
        </span>
      </Link>
      {canEdit && (
        <span className="flex shrink-0 items-center">
          <button type="button" onClick={() => setRenaming(true)} className={linkButtonClass} aria-label={`Rename ${view.name}`}>
            Rename
          </button>
          <ConfirmButton label="Delete" question="Delete?" confirmLabel="Delete" pending={remove.isPending} onConfirm={() => remove.mutate()} />
        </span>
      )}
      {remove.error && <FormError message={remove.error.message} />}
    </li>
  );
}
