"use client";

import Link from "next/link";
import { Fragment } from "react";
import { VisibleText } from "@/components/code/visible-text";
import { DateText } from "@/components/admin/date-text";
import type { FlagJson } from "@/lib/api/types";
import { EvidenceLink } from "./evidence-link";
import { type Closing, FlagActions, FlagReasonForm } from "./flag-actions";
import { FlagStatusBadge, RuleName, SeverityDot } from "./flag-badges";

export type FlagListProps = {
  items: FlagJson[];
  selected: number;
  onSelect: (index: number) => void;
  /** The reason form open on the selected row, if any. */
  closing: Closing | null;
  onClosing: (c: Closing | null) => void;
  canFlag: boolean;
  busy: boolean;
};

const th = "px-2 py-1.5 text-left font-medium";

/** The flags, newest first: each opens its evidence; resolve or dismiss in place. */
export function FlagList({ items, selected, onSelect, closing, onClosing, canFlag, busy }: FlagListProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table aria-busy={busy} className={`w-full table-fixed border-collapse text-xs transition-opacity ${busy ? "opacity-60" : ""}`}>
        <caption className="sr-only">Flags. j and k move the selection, Enter opens the evidence, e resolves, d dismisses.</caption>
        <colgroup>
          <col className="w-6" />
          <col className="w-44" />
          <col className="w-36" />
          <col />
          <col className="w-56" />
          <col className="w-20" />
          <col className="w-32" />
          {canFlag && <col className="w-44" />}
        </colgroup>
        <thead className="border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            <th scope="col" className={th}>
              <span className="sr-only">Severity</span>
            </th>
            <th scope="col" className={th}>Rule</th>
            <th scope="col" className={th}>Task</th>
            <th scope="col" className={th}>Message</th>
            <th scope="col" className={th}>Evidence</th>
            <th scope="col" className={th}>Status</th>
            <th scope="col" className={th}>Raised</th>
            {canFlag && (
              <th scope="col" className={th}>
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((f, i) => {
            const here = i === selected;
            return (
              <Fragment key={f.id}>
                <tr
                  data-index={i}
                  data-flag={f.id}
                  aria-selected={here}
                  onClick={() => onSelect(i)}
                  className={`h-8 border-b border-line/60 align-middle ${here ? "bg-accent-soft" : "hover:bg-surface-2"} ${f.status !== "open" || f.outdated ? "text-muted" : ""}`}
                >
                  <td className={`px-2 ${here ? "shadow-[inset_2px_0_0_var(--accent)]" : ""}`}>
                    <SeverityDot severity={f.severity} />
                  </td>
                  <td className="max-w-0 truncate px-2">
                    <RuleName rule={f.rule} />
                  </td>
                  <td className="max-w-0 truncate px-2">
                    <Link href={`/tasks/${f.task_id}`} className="font-mono text-accent hover:underline" title={f.task_ext_id}>
                      <VisibleText text={f.task_ext_id} />
                    </Link>
                    <span className="ml-1.5 text-2xs text-faint">
                      r{f.round ?? "—"}
                      {f.operator && (
                        <>
                          {" · "}
                          <VisibleText text={f.operator} />
                        </>
                      )}
                    </span>
                  </td>
                  <td className="max-w-0 truncate px-2" title={f.message}>
                    <VisibleText text={f.message} />
                  </td>
                  <td className="max-w-0 px-2">
                    <div className="flex min-w-0">
                      <EvidenceLink flag={f} />
                    </div>
                  </td>
                  <td className="px-2">
                    <FlagStatusBadge flag={f} />
                  </td>
                  <td className="truncate px-2" title={f.created_by ?? "automatic check"}>
                    <DateText iso={f.created_at} />
                  </td>
                  {canFlag && (
                    <td className="px-1 text-right">
                      <FlagActions flag={f} closing={here ? closing : null} keys={here} onClosing={(c) => { onSelect(i); onClosing(c); }} />
                    </td>
                  )}
                </tr>
                {canFlag && here && closing && (
                  <tr className="border-b border-line/60 bg-accent-soft/50">
                    <td />
                    <td colSpan={7} className="px-2 py-1.5">
                      <FlagReasonForm flag={f} closing={closing} onDone={() => onClosing(null)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
