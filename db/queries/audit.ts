// The audit trail: written in the same transaction as the change it records.
import type { Db } from "../client";
import { auditLog } from "../schema";

export interface AuditEntry {
  actorId: string | null;
  actorLabel: string;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: e.actorId,
    actorLabel: e.actorLabel,
    action: e.action,
    targetType: e.targetType ?? null,
    targetId: e.targetId ?? null,
    details: e.details ?? {},
  });
}
