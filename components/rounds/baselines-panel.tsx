"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/admin/confirm-button";
import { DateText } from "@/components/admin/date-text";
import { FormError } from "@/components/auth/form-controls";
import { VisibleText } from "@/components/code/visible-text";
import type { BaselineSummaryJson, RoundSliceJson, SeedFamilyJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { baselineKeys, deleteBaseline } from "@/lib/query/baselines";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { describeSlice } from "@/lib/rounds/slice-text";
import { SaveBaselineForm } from "./save-baseline-form";

export type BaselinesPanelProps = {
  run: string;
  slice: RoundSliceJson;
  seeds: SeedFamilyJson[];
  items: BaselineSummaryJson[];
  /** Ids drawn on the charts now (the URL's `baseline`). */
  active: number[];
  onToggle: (id: number) => void;
  onDeleted: (id: number) => void;
  canSave: boolean;
  canDelete: boolean;
};

const toggle = "h-6 rounded-md border px-2 text-xs";
const on = "border-accent bg-accent-soft text-fg";
const off = "border-line bg-surface text-muted hover:border-line-strong hover:text-fg";

/** Saved baselines: compare the page's run against one, save the view as one, delete (admins). */
export function BaselinesPanel({ run, slice, seeds, items, active, onToggle, onDeleted, canSave, canDelete }: BaselinesPanelProps) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: deleteBaseline,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: baselineKeys.detail(id) });
      void invalidateAfterWrite(queryClient, { queryKey: baselineKeys.list });
      onDeleted(id);
    },
  });
  return (
    <section aria-labelledby="baselines-title" className="flex flex-col gap-2 rounded-lg border border-line bg-surface px-3 py-2.5">
      <h2 id="baselines-title" className="text-xs font-semibold">
        Baselines <span className="font-normal text-muted">· saved round statistics to compare against, on the same axes</span>
      </h2>
      {items.length === 0 ? (
        <p className="text-2xs text-muted">No baselines saved yet.</p>
      ) : (
        <ul className="flex max-h-40 flex-col gap-1 overflow-y-auto" aria-label="Saved baselines">
          {items.map((b) => {
            const pressed = active.includes(b.id);
            return (
              <li key={b.id} className="flex flex-wrap items-center gap-x-2 gap-y-0.5 text-xs">
                <button type="button" aria-pressed={pressed} aria-label={`Compare with baseline ${b.name}`} className={`${toggle} ${pressed ? on : off}`} onClick={() => onToggle(b.id)}>
                  {pressed ? "Compared" : "Compare"}
                </button>
                <span className="font-medium">
                  <VisibleText text={b.name} />
                </span>
                <span className="text-2xs text-muted">
                  <VisibleText text={b.run} /> · <VisibleText text={describeSlice(b.slice, seeds)} /> · {formatInt(b.candidates)} candidates in {formatInt(b.rounds)} rounds
                  {b.created_by && (
                    <>
                      {" "}
                      · by <VisibleText text={b.created_by} />
                    </>
                  )}
                </span>
                <DateText iso={b.created_at} />
                {canDelete && (
                  <ConfirmButton
                    label="Delete"
                    question={`Delete baseline “${b.name}”?`}
                    confirmLabel="Delete"
                    pending={remove.isPending && remove.variables === b.id}
                    onConfirm={() => remove.mutate(b.id)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
      <FormError message={remove.error?.message} />
      {canSave && (
        <div className="border-t border-line pt-2">
          <SaveBaselineForm run={run} slice={slice} sliceText={describeSlice(slice, seeds)} />
        </div>
      )}
    </section>
  );
}
