// The imports list: one row per import attempt, what the Overview shows as "last ingest" and what
// GET /api/v1/imports/{id} reports while an upload is imported.
import os from "node:os";
import { and, eq, inArray, sql } from "drizzle-orm";
import { pidAlive, type Db } from "../client";
import { imports } from "../schema";

export async function startImport(db: Db, v: { runName: string; format: string; sourcePath: string }): Promise<number> {
  const [row] = await db.insert(imports).values({ ...v, process: processTag(), status: "running" }).returning({ id: imports.id });
  if (!row) throw new Error("could not record the import");
  return row.id;
}

export async function finishImport(
  db: Db,
  id: number,
  v: { status: "done" | "unchanged" | "failed"; runId?: number | null; summary?: Record<string, unknown>; error?: string },
): Promise<void> {
  await db
    .update(imports)
    .set({ status: v.status, runId: v.runId ?? null, summary: v.summary ?? {}, error: v.error ?? null, finishedAt: sql`now()` })
    .where(eq(imports.id, id));
}

/** Imports left "running" by a killed process are marked failed on the next start. */
export async function failInterruptedImports(db: Db): Promise<number> {
  const running = await db.select({ id: imports.id, process: imports.process }).from(imports).where(eq(imports.status, "running"));
  // Only imports whose process is gone: another import may be running right now (the server
  // imports uploads while the CLI imports a directory). Another host's imports are its own.
  const dead = running.filter((r) => r.process === null || processGone(r.process)).map((r) => r.id);
  if (dead.length === 0) return 0;
  const rows = await db
    .update(imports)
    .set({ status: "failed", error: "interrupted: the importing process stopped before it finished", finishedAt: sql`now()` })
    .where(and(eq(imports.status, "running"), inArray(imports.id, dead)))
    .returning({ id: imports.id });
  return rows.length;
}

/** This process, as recorded on its imports. */
export function processTag(): string {
  return `${os.hostname()}:${process.pid}`;
}

function processGone(tag: string): boolean {
  const i = tag.lastIndexOf(":");
  if (tag.slice(0, i) !== os.hostname()) return false;
  const pid = Number(tag.slice(i + 1));
  return pid !== process.pid && !pidAlive(pid);
}
