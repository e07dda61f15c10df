"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClass, FormError, inputClass, primaryButtonClass } from "@/components/auth/form-controls";
import { SavedViewRow } from "./saved-views-row";
import { saveView, viewKeys, viewsQuery } from "@/lib/query/bulk";
import { invalidateAfterWrite } from "@/lib/query/invalidate";

export type SavedViewsMenuProps = {
  /** The table's query string now (what "Save" names). */
  search: string;
  /** Its canonical form (lib/tasks/filter.ts taskFilterToSearch without the cursor): marks the open view. */
  current: string;
  canSave: boolean;
  isAdmin: boolean;
};

/** The "Views" menu of the task table: saved filters with their counts, open, save, rename, delete. */
export function SavedViewsMenu({ search, current, canSave, isAdmin }: SavedViewsMenuProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const panelId = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const views = useQuery({ ...viewsQuery(), enabled: open });
  const save = useMutation({
    mutationFn: () => saveView(name.trim(), search),
    onSuccess: () => {
      setName("");
      return invalidateAfterWrite(queryClient, { queryKey: viewKeys.all });
    },
  });

  // Click outside closes; Escape closes and gives the focus back to the button.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (wrapRef.current && e.target instanceof Node && !wrapRef.current.contains(e.target)) setOpen(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);

  const items = views.data?.items ?? [];
  return (
    <div
      ref={wrapRef}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.stopPropagation();
          setOpen(false);
          triggerRef.current?.focus();
        }
      }}
    >
      <button ref={triggerRef} type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} className={buttonClass}>
        Views {open ? "▴" : "▾"}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label="Saved views"
          className="absolute right-0 z-40 mt-1 flex w-96 flex-col rounded-lg border border-line bg-surface text-xs shadow-xl"
        >
          <div className="border-b border-line px-3 py-2 font-medium">Saved views</div>
          {views.isPending ? (
            <p className="px-3 py-3 text-muted">Loading…</p>
          ) : items.length === 0 ? (
            <p className="px-3 py-3 text-muted">No saved views yet.</p>
          ) : (
            <ul className="max-h-80 overflow-y-auto py-1">
              {items.map((v) => (
                <SavedViewRow key={v.id} view={v} active={v.query === current} canEdit={v.mine || isAdmin} onOpen={() => setOpen(false)} />
              ))}
            </ul>
          )}
          <FormError message={views.error?.message} className="mx-3 mb-2" />
          {canSave && (
            <form
              className="flex flex-col gap-1.5 border-t border-line px-3 py-2"
              onSubmit={(e) => {
                e.preventDefault();
                if (name.trim() && !save.isPending) save.mutate();
              }}
            >
              <label htmlFor={`${panelId}-name`} className="text-2xs text-muted">
                Save the current filter as
              </label>
              <div className="flex gap-1.5">
                <input
                  id={`${panelId}-name`}
                  value={name}
                  onChange={(e) => {
                    setName(e.target.value);
                    save.reset();
                  }}
                  maxLength={100}
                  placeholder="View name"
                  className={inputClass}
                />
                <button type="submit" disabled={!name.trim() || save.isPending} className={primaryButtonClass}>
                  Save
                </button>
              </div>
              <FormError message={save.error?.message} />
            </form>
          )}
        </div>
      )}
    </div>
  );
}
