"use client";

import { VisibleText } from "@/components/code/visible-text";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { AuditEntryJson } from "@/lib/query/admin";
import { AuditDetails } from "./audit-details";
import { DateText } from "./date-text";
import type { AuditPatch } from "./use-audit-search";

function actionTone(action: string): BadgeTone {
  if (action.endsWith(".failed") || action.endsWith(".refused")) return "bad";
  if (action.endsWith(".revoke") || action.endsWith(".deactivate") || action.endsWith(".password-reset")) return "warn";
  if (action.endsWith(".create")) return "ok";
  return "neutral";
}

const filterLink = "min-w-0 truncate rounded text-left hover:text-accent hover:underline";

export type AuditTableProps = { entries: AuditEntryJson[]; busy: boolean; update: (patch: AuditPatch, opts?: { push?: boolean }) => void };

export function AuditTable({ entries, busy, update }: AuditTableProps) {
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table aria-busy={busy} className={`w-full min-w-[1000px] table-fixed border-collapse text-xs transition-opacity ${busy ? "opacity-60" : ""}`}>
        <caption className="sr-only">Audit log, newest first. Select an actor or a target to filter by it.</caption>
        <thead className="border-b border-line bg-surface-2 text-2xs text-muted">
          <tr>
            <th scope="col" className="h-7 w-36 px-2 text-left font-medium">
              Time (UTC)
            </th>
            <th scope="col" className="w-56 px-2 text-left font-medium">
              Actor
            </th>
            <th scope="col" className="w-40 px-2 text-left font-medium">
              Action
            </th>
            <th scope="col" className="w-48 px-2 text-left font-medium">
              Target
            </th>
            <th scope="col" className="px-2 text-left font-medium">
              Details
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} className="border-b border-line align-top last:border-b-0 hover:bg-surface-2/60">
              <td className="px-2 py-1.5">
                <DateText iso={e.at} />
              </td>
              <td className="px-2 py-1.5">
                {e.actor ? (
                  <button type="button" title={`Only entries by ${e.actor}`} onClick={() => update({ actor: e.actor }, { push: true })} className={`${filterLink} block max-w-full`}>
                    <VisibleText text={e.actor} />
                  </button>
                ) : (
                  <span className="text-faint">—</span>
                )}
              </td>
              <td className="px-2 py-1.5">
                <Badge tone={actionTone(e.action)}>
                  <span className="font-mono">
                    <VisibleText text={e.action} />
                  </span>
                </Badge>
              </td>
              <td className="px-2 py-1.5">
                {e.target_type ? (
                  <button
                    type="button"
                    title={`Only entries about ${e.target_type} ${e.target_id ?? ""}`}
                    onClick={() => update({ target_type: e.target_type, target_id: e.target_id }, { push: true })}
                    className={`${filterLink} block max-w-full font-mono text-2xs text-muted`}
                  >
                    <VisibleText text={e.target_type} />
                    {e.target_id && (
                      <>
                        :<VisibleText text={e.target_id} />
                      </>
                    )}
                  </button>
                ) : (
                  <span className="text-faint">—</span>
                )}
              </td>
              <td className="px-2 py-1.5">
                <AuditDetails details={e.details} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
