// The audit trail: written in the same transaction as the change it records.
import { and, desc, eq, ilike, like, lt, type SQL } from "drizzle-orm";
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

export interface AuditQuery {
  action?: string;
  /** Matches the actor's label (email or token name), case-insensitively, as a substring. */
  actor?: string;
  targetType?: string;
  targetId?: string;
  /** Rows older than this id (the cursor of the previous page). */
  before?: number;
  limit: number;
}

export interface AuditRow {
  id: number;
  at: string;
  actorId: string | null;
  actorLabel: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
}

/** Newest first, keyset-paginated by id so a busy log pages in constant time. */
export async function listAudit(db: Db, q: AuditQuery): Promise<{ items: AuditRow[]; next: number | null }> {
  const where: SQL[] = [];
  if (q.action) where.push(q.action.endsWith(".") ? like(auditLog.action, `${q.action}%`) : eq(auditLog.action, q.action));
  if (q.actor) where.push(ilike(auditLog.actorLabel, `%${q.actor.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (q.targetType) where.push(eq(auditLog.targetType, q.targetType));
  if (q.targetId) where.push(eq(auditLog.targetId, q.targetId));
  if (q.before) where.push(lt(auditLog.id, q.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(q.limit + 1);
  const items = rows.slice(0, q.limit);
  return { items, next: rows.length > q.limit ? (items[items.length - 1]?.id ?? null) : null };
}

/** The distinct actions present, for the filter menu. */
export async function listAuditActions(db: Db): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((r) => r.action);
}
