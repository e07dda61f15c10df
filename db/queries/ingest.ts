// All SQL of an import: batched, idempotent writes inside the caller's transaction.
import { and, eq, sql } from "drizzle-orm";
import type { StoredContent } from "@/lib/ingest/content";
import type { Db } from "../client";
import { blobs, evals, imports, runs, taskFiles, tasks, trialLogs, trials, trialTests, type NewTask } from "../schema";

const CHUNK_ROWS = 500;

function chunks<T>(rows: T[], size = CHUNK_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export interface RunInput {
  name: string;
  format: string;
  sourcePath: string;
  meta: Record<string, unknown>;
  createdAt: string | null;
}

export interface TaskInput {
  row: Omit<NewTask, "runId" | "search">;
  searchText: string;
  files: { path: string; stored: StoredContent }[];
  evals: { model: string; k: number; n: number; successes: number; meanReward: number | null }[];
}

export interface TrialInput {
  taskExtId: string;
  extId: string;
  row: Omit<typeof trials.$inferInsert, "runId" | "taskId" | "extId">;
  tests: { name: string; status: string; durationMs: number | null; message: string | null }[];
  logs: { name: string; stored: StoredContent; lines: number }[];
}

export interface WriteCounts {
  tasksNew: number;
  tasksChanged: number;
  tasksUnchanged: number;
  trialsNew: number;
  files: number;
  blobsNew: number;
  bytesNew: number;
}

export async function startImport(db: Db, v: { runName: string; format: string; sourcePath: string }): Promise<number> {
  const [row] = await db.insert(imports).values({ ...v, status: "running" }).returning({ id: imports.id });
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
  const rows = await db
    .update(imports)
    .set({ status: "failed", error: "interrupted: the importing process stopped before it finished", finishedAt: sql`now()` })
    .where(eq(imports.status, "running"))
    .returning({ id: imports.id });
  return rows.length;
}

/** Batches one run's rows; `flush` writes them. Lives inside one transaction. */
export class RunWriter {
  readonly counts: WriteCounts = { tasksNew: 0, tasksChanged: 0, tasksUnchanged: 0, trialsNew: 0, files: 0, blobsNew: 0, bytesNew: 0 };
  private existing = new Map<string, { id: number; contentHash: string }>();
  private existingTrials = new Set<string>();
  private seenBlobs = new Set<string>();
  private pendingTasks: TaskInput[] = [];
  private pendingTrials: TrialInput[] = [];
  private pendingBytes = 0;
  private taskIds = new Map<string, number>();

  private constructor(
    private readonly tx: Db,
    readonly runId: number,
    readonly runExisted: boolean,
  ) {}

  static async open(tx: Db, run: RunInput): Promise<RunWriter> {
    const [found] = await tx.select({ id: runs.id }).from(runs).where(eq(runs.name, run.name));
    let runId: number;
    if (found) {
      runId = found.id;
      await tx.update(runs).set({ meta: run.meta, sourcePath: run.sourcePath }).where(eq(runs.id, runId));
    } else {
      const [created] = await tx
        .insert(runs)
        .values({ name: run.name, format: run.format, sourcePath: run.sourcePath, meta: run.meta, createdAt: run.createdAt })
        .returning({ id: runs.id });
      if (!created) throw new Error("could not create the run");
      runId = created.id;
    }
    const writer = new RunWriter(tx, runId, Boolean(found));
    if (found) await writer.loadExisting();
    return writer;
  }

  private async loadExisting(): Promise<void> {
    const rows = await this.tx.select({ id: tasks.id, extId: tasks.extId, contentHash: tasks.contentHash }).from(tasks).where(eq(tasks.runId, this.runId));
    for (const r of rows) {
      this.existing.set(r.extId, { id: r.id, contentHash: r.contentHash });
      this.taskIds.set(r.extId, r.id);
    }
    const trs = await this.tx
      .select({ taskId: trials.taskId, extId: trials.extId })
      .from(trials)
      .where(eq(trials.runId, this.runId));
    for (const t of trs) this.existingTrials.add(`${t.taskId}\u0000${t.extId}`);
  }

  /** Whether the task is new or its content changed (unchanged tasks need no further reading). */
  needsTask(extId: string, contentHash: string): boolean {
    const prev = this.existing.get(extId);
    return !prev || prev.contentHash !== contentHash;
  }

  hasTrial(taskExtId: string, extId: string): boolean {
    const taskId = this.taskIds.get(taskExtId);
    return taskId !== undefined && this.existingTrials.has(`${taskId}\u0000${extId}`);
  }

  async addTask(t: TaskInput): Promise<void> {
    if (!this.needsTask(t.row.extId, t.row.contentHash)) {
      this.counts.tasksUnchanged++;
      return;
    }
    this.pendingTasks.push(t);
    for (const f of t.files) this.pendingBytes += f.stored.content.length;
    await this.maybeFlush();
  }

  async addTrial(t: TrialInput): Promise<void> {
    this.pendingTrials.push(t);
    for (const l of t.logs) this.pendingBytes += l.stored.content.length;
    await this.maybeFlush();
  }

  private async maybeFlush(): Promise<void> {
    if (this.pendingTasks.length + this.pendingTrials.length >= 200 || this.pendingBytes > 16 * 1024 * 1024) await this.flush();
  }

  private async writeBlobs(items: StoredContent[]): Promise<void> {
    const fresh: StoredContent[] = [];
    for (const b of items) {
      if (this.seenBlobs.has(b.hash)) continue;
      this.seenBlobs.add(b.hash);
      fresh.push(b);
    }
    for (const part of chunks(fresh, 200)) {
      const inserted = await this.tx
        .insert(blobs)
        .values(part.map((b) => ({ hash: b.hash, size: b.size, encoding: b.encoding, content: b.content })))
        .onConflictDoNothing()
        .returning({ size: blobs.size });
      this.counts.blobsNew += inserted.length;
      for (const r of inserted) this.counts.bytesNew += r.size;
    }
  }

  async flush(): Promise<void> {
    const taskBatch = this.pendingTasks;
    const trialBatch = this.pendingTrials;
    this.pendingTasks = [];
    this.pendingTrials = [];
    this.pendingBytes = 0;
    await this.writeBlobs([...taskBatch.flatMap((t) => t.files.map((f) => f.stored)), ...trialBatch.flatMap((t) => t.logs.map((l) => l.stored))]);
    await this.writeTasks(taskBatch);
    await this.writeTrials(trialBatch);
  }

  private async writeTasks(batch: TaskInput[]): Promise<void> {
    const fresh = batch.filter((t) => !this.existing.has(t.row.extId));
    const changed = batch.filter((t) => this.existing.has(t.row.extId));
    for (const part of chunks(fresh, 200)) {
      const rows = await this.tx
        .insert(tasks)
        .values(part.map((t) => ({ ...t.row, runId: this.runId, search: sql`to_tsvector('simple', ${t.searchText})` })))
        .returning({ id: tasks.id, extId: tasks.extId });
      for (const r of rows) this.taskIds.set(r.extId, r.id);
      this.counts.tasksNew += rows.length;
    }
    for (const t of changed) {
      const prev = this.existing.get(t.row.extId);
      if (!prev) continue;
      // Changed content: new files and metrics, a new version; the review history is kept.
      await this.tx
        .update(tasks)
        .set({ ...t.row, search: sql`to_tsvector('simple', ${t.searchText})`, version: sql`${tasks.version} + 1` })
        .where(eq(tasks.id, prev.id));
      await this.tx.delete(taskFiles).where(eq(taskFiles.taskId, prev.id));
      await this.tx.delete(evals).where(eq(evals.taskId, prev.id));
      this.counts.tasksChanged++;
    }
    const fileRows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.row.extId);
      return taskId === undefined ? [] : t.files.map((f) => ({ taskId, path: f.path, blobHash: f.stored.hash, size: f.stored.size }));
    });
    for (const part of chunks(fileRows)) await this.tx.insert(taskFiles).values(part);
    this.counts.files += fileRows.length;
    const evalRows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.row.extId);
      return taskId === undefined ? [] : t.evals.map((e) => ({ taskId, ...e }));
    });
    for (const part of chunks(evalRows)) await this.tx.insert(evals).values(part).onConflictDoNothing();
  }

  private async writeTrials(batch: TrialInput[]): Promise<void> {
    const rows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.taskExtId);
      if (taskId === undefined || this.existingTrials.has(`${taskId}\u0000${t.extId}`)) return [];
      this.existingTrials.add(`${taskId}\u0000${t.extId}`);
      return [{ t, taskId }];
    });
    for (const part of chunks(rows, 200)) {
      const inserted = await this.tx
        .insert(trials)
        .values(part.map(({ t, taskId }) => ({ ...t.row, runId: this.runId, taskId, extId: t.extId })))
        .returning({ id: trials.id });
      this.counts.trialsNew += inserted.length;
      const testRows: (typeof trialTests.$inferInsert)[] = [];
      const logRows: (typeof trialLogs.$inferInsert)[] = [];
      part.forEach(({ t }, i) => {
        const trialId = inserted[i]?.id;
        if (trialId === undefined) return;
        t.tests.forEach((test, seq) => testRows.push({ trialId, seq, ...test }));
        for (const l of t.logs) logRows.push({ trialId, name: l.name, blobHash: l.stored.hash, bytes: l.stored.size, lines: l.lines });
      });
      for (const c of chunks(testRows)) await this.tx.insert(trialTests).values(c);
      for (const c of chunks(logRows)) await this.tx.insert(trialLogs).values(c);
    }
  }

  /** Resolves parent links and derives root, depth and materialized path, in the database. */
  async linkLineage(): Promise<void> {
    await this.flush();
    await this.tx.execute(sql`
      UPDATE tasks c SET parent_id = p.id
      FROM tasks p
      WHERE c.run_id = ${this.runId} AND p.run_id = ${this.runId}
        AND c.parent_ext_id = p.ext_id AND c.parent_id IS DISTINCT FROM p.id`);
    await this.tx.execute(sql`
      WITH RECURSIVE tree AS (
        SELECT id, id AS root_id, 0 AS depth, '/' || id || '/' AS path
        FROM tasks WHERE run_id = ${this.runId} AND parent_id IS NULL
        UNION ALL
        SELECT c.id, tree.root_id, tree.depth + 1, tree.path || c.id || '/'
        FROM tasks c JOIN tree ON c.parent_id = tree.id
      )
      UPDATE tasks t SET root_id = tree.root_id, depth = tree.depth, path = tree.path
      FROM tree WHERE t.id = tree.id
        AND (t.root_id IS DISTINCT FROM tree.root_id OR t.depth <> tree.depth OR t.path <> tree.path)`);
  }

  async taskCountInRun(): Promise<number> {
    const [row] = await this.tx.select({ n: sql<number>`count(*)::int` }).from(tasks).where(and(eq(tasks.runId, this.runId)));
    return row?.n ?? 0;
  }
}
