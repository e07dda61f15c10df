"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { buttonClass, primaryButtonClass } from "@/components/auth/form-controls";
import { ModalDialog, useModalOnMount } from "@/components/ui/modal";
import type { LineageInferenceJson } from "@/lib/api/types";
import { formatInt } from "@/lib/format/number";
import { sendJson } from "@/lib/query/fetch-json";

export type InferLineageProps = { run: string; inferred: boolean };

/** "Infer lineage…" for a run that arrived without parent links (admins): a dry run's numbers
 * first, then the links written. */
export function InferLineage({ run, inferred }: InferLineageProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={buttonClass} title="Link each task to the task whose solution its own extends">
        {inferred ? "Infer lineage again…" : "Infer lineage…"}
      </button>
      {open && <InferDialog run={run} onClose={() => setOpen(false)} />}
    </>
  );
}

type State = { step: "previewing" } | { step: "preview"; result: LineageInferenceJson } | { step: "writing"; result: LineageInferenceJson } | { step: "done"; result: LineageInferenceJson } | { step: "failed"; message: string };

function InferDialog({ run, onClose }: { run: string; onClose: () => void }) {
  const dialogRef = useModalOnMount();
  const router = useRouter();
  const [state, setState] = useState<State>({ step: "previewing" });
  const path = `/api/v1/runs/${encodeURIComponent(run)}/lineage`;

  useEffect(() => {
    sendJson<LineageInferenceJson>("POST", path, { dry_run: true }).then(
      (result) => setState({ step: "preview", result }),
      (err: Error) => setState({ step: "failed", message: err.message }),
    );
  }, [path]);

  const write = (result: LineageInferenceJson) => {
    setState({ step: "writing", result });
    sendJson<LineageInferenceJson>("POST", path, { dry_run: false }).then(
      (done) => {
        setState({ step: "done", result: done });
        router.refresh();
      },
      (err: Error) => setState({ step: "failed", message: err.message }),
    );
  };

  return (
    <ModalDialog dialogRef={dialogRef} id="infer-title" title={`Infer the lineage of ${run}`} width="w-[32rem]" bodyClassName="text-[13px]" onClose={onClose}>
      <p className="text-xs text-muted">
        Each task is linked to the shorter solution its own keeps best, in order — a child of a recursive synthesis extends its parent&apos;s
        solve.sh. Unknown rounds become depths. Links declared by a pipeline are never replaced.
      </p>
      {state.step === "previewing" && <p className="text-muted">Reading the run&apos;s solutions…</p>}
      {state.step === "failed" && (
        <p role="alert" className="rounded bg-bad-soft px-2 py-1 text-bad">
          {state.message}
        </p>
      )}
      {(state.step === "preview" || state.step === "writing" || state.step === "done") && <Numbers result={state.result} done={state.step === "done"} />}
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClass} onClick={() => dialogRef.current?.close()}>
          {state.step === "done" ? "Done" : "Cancel"}
        </button>
        {(state.step === "preview" || state.step === "writing") && (
          <button type="button" className={primaryButtonClass} disabled={state.step === "writing" || state.result.tasks === 0} onClick={() => write(state.result)}>
            {state.step === "writing" ? "Linking…" : `Link ${formatInt(state.result.linked)} tasks`}
          </button>
        )}
      </div>
    </ModalDialog>
  );
}

function Numbers({ result, done }: { result: LineageInferenceJson; done: boolean }) {
  const c = result.confidence;
  return (
    <div data-testid="infer-numbers" className="rounded-md border border-line bg-surface-2 px-3 py-2">
      <p>
        {done ? "Linked" : "Would link"} <strong className="tabular-nums">{formatInt(result.linked)}</strong> of {formatInt(result.tasks)} tasks to a parent;{" "}
        <span className="tabular-nums">{formatInt(result.roots)}</span> {result.roots === 1 ? "is a root" : "are roots"}.
      </p>
      <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 text-xs">
        <dt className="text-muted">confidence ≥ 80 %</dt>
        <dd className="tabular-nums text-ok">{formatInt(c.high)}</dd>
        <dt className="text-muted">50–80 %</dt>
        <dd className="tabular-nums text-warn">{formatInt(c.medium)}</dd>
        <dt className="text-muted">below 50 %</dt>
        <dd className="tabular-nums text-bad">{formatInt(c.low)}</dd>
        <dt className="text-muted">rounds from depth</dt>
        <dd className="tabular-nums">{formatInt(result.rounds_from_depth)}</dd>
      </dl>
      {done && result.checks && (
        <p className="mt-1.5 text-xs text-muted">
          Checked again: {formatInt(Object.values(result.checks).reduce((a, b) => a + b, 0))} findings.
        </p>
      )}
    </div>
  );
}
