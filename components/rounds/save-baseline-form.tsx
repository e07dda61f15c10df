"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Field, FormError, inputClass, primaryButtonClass } from "@/components/auth/form-controls";
import type { RoundSliceJson } from "@/lib/api/types";
import { baselineKeys, saveBaseline } from "@/lib/query/baselines";
import { invalidateAfterWrite } from "@/lib/query/invalidate";

export type SaveBaselineFormProps = {
  run: string;
  slice: RoundSliceJson;
  /** The slice in words, to say what will be saved. */
  sliceText: string;
};

/** Saves the statistics on screen (the run and slice; the server computes them) under a name. */
export function SaveBaselineForm({ run, slice, sliceText }: SaveBaselineFormProps) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: saveBaseline,
    onSuccess: () => invalidateAfterWrite(queryClient, { queryKey: baselineKeys.list }),
  });
  return (
    <form
      aria-label="Save a baseline"
      className="flex flex-col gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        if (save.isPending) return;
        const form = e.currentTarget;
        const name = String(new FormData(form).get("name") ?? "").trim();
        save.mutate({ name, run, slice }, { onSuccess: () => form.reset() });
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Baseline name" className="w-64">
          {(id) => <input id={id} name="name" required maxLength={100} autoComplete="off" placeholder="e.g. before the verifier change" className={inputClass} />}
        </Field>
        <button type="submit" disabled={save.isPending} className={primaryButtonClass}>
          {save.isPending ? "Saving…" : "Save as baseline"}
        </button>
        <p className="pb-1.5 text-2xs text-faint">
          Saves {run} · {sliceText} as it is now.
        </p>
      </div>
      {save.isSuccess && (
        <p role="status" className="text-2xs text-ok">
          Saved “{save.data.name}”.
        </p>
      )}
      <FormError message={save.error?.message} />
    </form>
  );
}
