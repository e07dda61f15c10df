"use client";

import { useState } from "react";
import { buttonClass, primaryButtonClass } from "@/components/auth/form-controls";
import { ModalDialog, useModalOnMount } from "@/components/ui/modal";
import { formatInt } from "@/lib/format/number";
import type { ExportFormat } from "@/lib/export/write";

const FORMATS: { value: ExportFormat; label: string; hint: string }[] = [
  { value: "harbor", label: "Harbor task directories (.tar.gz)", hint: "one directory per task, with manifest.json: every file's SHA-256" },
  { value: "jsonl", label: "JSONL", hint: "one task per line, its files and their SHA-256 inline" },
];

export type ExportActionProps = {
  /** The task table's filter as a query string, without page keys. */
  filter: string;
  /** The table's count of matching tasks, when known. */
  total: number | null;
  totalIsEstimate: boolean;
};

/** The toolbar's "Export…" button (admins): the filtered tasks, every match, as a download. */
export function ExportAction({ filter, total, totalIsEstimate }: ExportActionProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={buttonClass} title="Download every task this filter matches">
        Export…
      </button>
      {open && <ExportDialog filter={filter} total={total} totalIsEstimate={totalIsEstimate} onClose={() => setOpen(false)} />}
    </>
  );
}

function ExportDialog({ filter, total, totalIsEstimate, onClose }: ExportActionProps & { onClose: () => void }) {
  const dialogRef = useModalOnMount();
  const [format, setFormat] = useState<ExportFormat>("harbor");

  const params = new URLSearchParams(filter);
  params.set("format", format);
  const href = `/api/v1/export?${params.toString()}`;

  return (
    <ModalDialog dialogRef={dialogRef} id="export-title" title="Export tasks" width="w-[30rem]" onClose={onClose}>
      <p className="rounded-md border border-line bg-surface-2 px-3 py-2 text-[13px]">
        {total === null ? (
          "Every task this filter matches"
        ) : (
          <>
            <strong data-testid="export-count">
              {totalIsEstimate ? "≈ " : ""}
              {formatInt(total)}
            </strong>{" "}
            task{total === 1 ? "" : "s"} match this filter
          </>
        )}
        <span className="text-muted"> — every match, not only this page, as they are when the download starts.</span>
        <span className="mt-1 block truncate font-mono text-2xs text-faint" title={filter}>
          {filter === "" ? "(no filter: every task of every run)" : filter}
        </span>
      </p>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1 text-xs text-muted">Format</legend>
        {FORMATS.map((f) => (
          <label key={f.value} className="flex items-start gap-2 text-[13px]">
            <input type="radio" name="export-format" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} className="mt-0.5" />
            <span>
              {f.label}
              <span className="block text-xs text-muted">{f.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="flex items-center justify-end gap-2 border-t border-line pt-3">
        <button type="button" onClick={() => dialogRef.current?.close()} className={buttonClass}>
          Cancel
        </button>
        <a href={href} download onClick={() => dialogRef.current?.close()} className={`${primaryButtonClass} inline-flex items-center`}>
          Download
        </a>
      </div>
    </ModalDialog>
  );
}
