// All SQL of an import: batched, idempotent writes inside the caller's transaction.
// Rows of the tables written as they are (task_search: ingest-search.ts; task_files,
// trial_tests, trial_logs) go through binary COPY (bulk.ts copyRows); rows that need ON CONFLICT
// or RETURNING travel as one JSON document per statement that json_to_recordset turns into a
// table: one parameter instead of one per value, because binding and building millions of
// parameters (drizzle's insert builder, the drivers' serializers) cost more than the database
// work itself.
import { eq, getTableName, sql } from "drizzle-orm";
import type { StoredContent } from "@/lib/ingest/content";
import { execRows, isEmbedded, type Db } from "../client";
import { CHUNK_ROWS, chunks, copyRows, insertJson } from "./bulk";
import {
  EVALS, LOG_CHUNKS, TASKS, TRIALS,
  type RunInput, type TaskInput, type TrialInput, type WriteCounts,
} from "./ingest-rows";
import { blobKey, firstSeen, readingKey, writeNewBlobs, writeNewReadings } from "./ingest-blobs";
import { searchRow, writeSearchRows, type SearchRow } from "./ingest-search";
import { agreesOnVectors, tuneTransaction, type ImportEndPlan } from "./ingest-settings";
import { linkRunLineage } from "./lineage-link";
import { evals, logChunks, runs, taskFiles, tasks, taskSearch, trialLogs, trials, trialTests } from "../schema";

/** Rows of trial_tests and trial_logs as the writer builds them. */
type TestRow = TrialInput["tests"][number] & { trialId: number; seq: number };
interface LogRow {
  trialId: number;
  name: string;
  blobHash: string;
  bytes: number;
  lines: number;
  chunked: boolean;
}

/** A task's place in its lineage tree (tasks.parent_id, root_id, depth, path). */
interface Placement {
  id: number;
  rootId: number;
  depth: number;
  path: string;
}

/** Batches one run's rows; `flush` writes them. Lives inside one transaction. */
export class RunWriter {
  readonly counts: WriteCounts = { tasksNew: 0, tasksChanged: 0, tasksUnchanged: 0, trialsNew: 0, files: 0, blobsNew: 0, bytesNew: 0 };
  private existing = new Map<string, { id: number; contentHash: string }>();
  /** task id → trial ext ids in the database */
  private existingTrials = new Map<number, Set<string>>();
  private seenBlobs = new Set<string>();
  /** check readings this import wrote or found stored (reader and blob hash) */
  private seenReadings = new Set<string>();
  /** blobs whose log chunks this import wrote already */
  private chunkedBlobs = new Set<string>();
  private pendingTasks: TaskInput[] = [];
  private pendingTrials: TrialInput[] = [];
  private pendingBytes = 0;
  /** The batch being written, if any. The next batch is gathered meanwhile, so the reader threads
   * keep reading while the database writes; batches are written one after another, in order. */
  private writing: Promise<void> | null = null;
  private writeError: Error | null = null;
  private taskIds = new Map<string, number>();
  /** where each task of the run sits in its lineage tree, for its children's rows */
  private placed = new Map<string, Placement>();
  /** whether this database builds the same vectors as searchVector (checked on a probe) */
  private vectorsAgree = false;
  /** what happens to the search indexes and foreign keys at the end (tuneTransaction) */
  private endPlan: ImportEndPlan = { merge: [], rebuild: [] };
  /** the database is embedded PGlite, whose writes run in this thread: readers then read
   * further ahead (lib/ingest/native/read-run.ts) */
  readonly embeddedDatabase: boolean;

  private constructor(
    private readonly tx: Db,
    readonly runId: number,
    readonly runExisted: boolean,
  ) {
    this.embeddedDatabase = isEmbedded(tx);
  }

  /** A writer for trials of a run already in the database (Harbor job ingest): the run's tasks
   * and trials are loaded, the run itself is left as it is. */
  static async attach(tx: Db, runId: number): Promise<RunWriter> {
    const writer = new RunWriter(tx, runId, true);
    await writer.loadExisting();
    return writer;
  }

  /** The content hash a task of this run has in the database (what a trial ran against, as far
   * as anyone knows), or null. */
  contentHashOf(extId: string): string | null {
    return this.existing.get(extId)?.contentHash ?? null;
  }

  /** `incoming`: how many candidates the import brings (read-run's count, before reading them). */
  static async open(tx: Db, run: RunInput, incoming: number): Promise<RunWriter> {
    const [found] = await tx.select({ id: runs.id }).from(runs).where(eq(runs.name, run.name));
    let runId: number;
    if (found) {
      runId = found.id;
      await tx.update(runs).set(run.keepMeta ? { sourcePath: run.sourcePath } : { meta: run.meta, sourcePath: run.sourcePath }).where(eq(runs.id, runId));
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
    writer.vectorsAgree = await agreesOnVectors(tx);
    // Tasks of the run already stored come again unchanged, or as new versions of the same rows.
    writer.endPlan = await tuneTransaction(tx, { adding: Math.max(0, incoming - writer.existing.size) });
    return writer;
  }

  private async loadExisting(): Promise<void> {
    const rows = await this.tx
      .select({ id: tasks.id, extId: tasks.extId, contentHash: tasks.contentHash, rootId: tasks.rootId, depth: tasks.depth, path: tasks.path })
      .from(tasks)
      .where(eq(tasks.runId, this.runId));
    for (const r of rows) {
      this.existing.set(r.extId, { id: r.id, contentHash: r.contentHash });
      this.taskIds.set(r.extId, r.id);
      if (r.rootId !== null) this.placed.set(r.extId, { id: r.id, rootId: r.rootId, depth: r.depth, path: r.path });
    }
    const trs = await this.tx
      .select({ taskId: trials.taskId, extId: trials.extId })
      .from(trials)
      .where(eq(trials.runId, this.runId));
    for (const t of trs) if (t.taskId !== null) this.trialSet(t.taskId).add(t.extId);
  }

  private trialSet(taskId: number): Set<string> {
    let set = this.existingTrials.get(taskId);
    if (!set) {
      set = new Set();
      this.existingTrials.set(taskId, set);
    }
    return set;
  }

  /** Content hash of the task as the database has it (null when new): equal means unchanged,
   * and a reader can skip measuring it. */
  knownHash(extId: string): string | null {
    return this.existing.get(extId)?.contentHash ?? null;
  }

  /** Trial ext ids the database has for the task already (a reader skips those directories). */
  knownTrials(taskExtId: string): string[] {
    const taskId = this.taskIds.get(taskExtId);
    return taskId === undefined ? [] : [...(this.existingTrials.get(taskId) ?? [])];
  }

  /** Whether the task is new or its content changed (unchanged tasks need no further reading). */
  needsTask(extId: string, contentHash: string): boolean {
    return this.knownHash(extId) !== contentHash;
  }

  hasTrial(taskExtId: string, extId: string): boolean {
    const taskId = this.taskIds.get(taskExtId);
    return taskId !== undefined && (this.existingTrials.get(taskId)?.has(extId) ?? false);
  }

  async addTask(t: TaskInput): Promise<void> {
    if (this.writeError) throw this.writeError;
    if (!this.needsTask(t.row.extId, t.row.contentHash)) {
      this.counts.tasksUnchanged++;
      return;
    }
    this.pendingTasks.push(t);
    for (const f of t.files) this.pendingBytes += f.stored.content.length;
    await this.maybeFlush();
  }

  async addTrial(t: TrialInput): Promise<void> {
    if (this.writeError) throw this.writeError;
    this.pendingTrials.push(t);
    for (const l of t.logs) this.pendingBytes += l.stored.content.length * (l.chunks ? 2 : 1);
    await this.maybeFlush();
  }

  /** A full batch starts writing without being waited for (once the one before is written). */
  private async maybeFlush(): Promise<void> {
    if (this.pendingTasks.length + this.pendingTrials.length < 1000 && this.pendingBytes <= 16 * 1024 * 1024) return;
    await this.settled();
    this.writing = this.writeBatch().catch((err: Error) => {
      this.writeError = err;
    });
  }

  /** Waits for the batch being written; its error, if it failed. Every use of the transaction
   * after the writer's last add (commit or rollback included) comes after this. */
  async settled(): Promise<void> {
    if (this.writing) await this.writing;
    this.writing = null;
    if (this.writeError) throw this.writeError;
  }

  private async writeBlobs(items: StoredContent[]): Promise<void> {
    const written = await writeNewBlobs(this.tx, firstSeen(items, blobKey, this.seenBlobs));
    this.counts.blobsNew += written.rows;
    this.counts.bytesNew += written.bytes;
  }

  /** Writes every pending row, after the batch being written. */
  async flush(): Promise<void> {
    await this.settled();
    await this.writeBatch();
  }

  private async writeBatch(): Promise<void> {
    const taskBatch = this.pendingTasks;
    const trialBatch = this.pendingTrials;
    this.pendingTasks = [];
    this.pendingTrials = [];
    this.pendingBytes = 0;
    await this.writeBlobs([...taskBatch.flatMap((t) => t.files.map((f) => f.stored)), ...trialBatch.flatMap((t) => t.logs.map((l) => l.stored))]);
    await this.writeTasks(taskBatch);
    await writeNewReadings(this.tx, firstSeen(taskBatch.flatMap((t) => t.readings ?? []), readingKey, this.seenReadings));
    await this.writeTrials(trialBatch);
  }

  /** The lineage columns of a new task: under its parent when the parent is placed already (the
   * usual case: lineage.jsonl lists parents first), else left for linkLineage. */
  private place(extId: string, parentExtId: string | null, id: number): { id: number; parentId: number | null; rootId: number | null; depth: number; path: string } {
    const parent = parentExtId === null ? null : this.placed.get(parentExtId);
    if (parentExtId !== null && !parent) return { id, parentId: null, rootId: null, depth: 0, path: "/" };
    const placement: Placement = parent
      ? { id, rootId: parent.rootId, depth: parent.depth + 1, path: `${parent.path}${id}/` }
      : { id, rootId: id, depth: 0, path: `/${id}/` };
    this.placed.set(extId, placement);
    return { ...placement, parentId: parent?.id ?? null };
  }

  private async writeTasks(batch: TaskInput[]): Promise<void> {
    const fresh = batch.filter((t) => !this.existing.has(t.row.extId));
    const changed = batch.filter((t) => this.existing.has(t.row.extId));
    for (const part of chunks(fresh, 500)) {
      // Ids come first, so that each row is written once, complete with its place in the lineage
      // tree: placing tasks afterwards (an UPDATE per task) rewrote every row and every index
      // entry, the full-text ones included. linkLineage below still fixes whatever is left.
      const ids = await execRows<{ id: number }>(
        this.tx,
        sql`SELECT nextval(pg_get_serial_sequence(${getTableName(tasks)}, 'id'))::int AS id FROM generate_series(1, ${part.length}::int)`,
      );
      const rows = part.map((t, i) => {
        const id = ids[i]?.id;
        if (id === undefined) throw new Error("could not allocate task ids");
        const placed = this.place(t.row.extId, t.row.parentExtId ?? null, id);
        return { task: { ...t.row, ...placed }, search: searchRow(id, this.runId, t, placed.parentId === null ? null : (t.row.parentExtId ?? null), this.vectorsAgree) };
      });
      const inserted = await execRows<{ id: number; ext_id: string }>(
        this.tx,
        insertJson(
          tasks,
          TASKS,
          rows.map((r) => r.task),
          { extra: { columns: sql`run_id`, values: sql`${this.runId}::int` }, tail: sql`RETURNING id, ext_id` },
        ),
      );
      for (const r of inserted) this.taskIds.set(r.ext_id, r.id);
      this.counts.tasksNew += inserted.length;
      await writeSearchRows(this.tx, rows.map((r) => r.search), false);
    }
    const changedSearch: SearchRow[] = [];
    for (const t of changed) {
      const prev = this.existing.get(t.row.extId);
      if (!prev) continue;
      // Changed content: new files and metrics, a new version; the review history is kept.
      await this.tx
        .update(tasks)
        .set({ ...t.row, lineageInferred: null, version: sql`${tasks.version} + 1` })
        .where(eq(tasks.id, prev.id));
      await this.tx.delete(taskFiles).where(eq(taskFiles.taskId, prev.id));
      await this.tx.delete(evals).where(eq(evals.taskId, prev.id));
      // Its descendants' pairs may leave out what its old text had: it stands for every pair.
      changedSearch.push(searchRow(prev.id, this.runId, t, undefined, this.vectorsAgree));
      this.counts.tasksChanged++;
    }
    for (const part of chunks(changedSearch, 500)) await writeSearchRows(this.tx, part, true);
    const fileRows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.row.extId);
      return taskId === undefined ? [] : t.files.map((f) => ({ taskId, path: f.path, blobHash: f.stored.hash, size: f.stored.size }));
    });
    await copyRows(this.tx, taskFiles, [taskFiles.taskId, taskFiles.path, taskFiles.blobHash, taskFiles.size], fileRows, (r) => [
      { int4: r.taskId },
      { text: r.path },
      { text: r.blobHash },
      { int4: r.size },
    ]);
    this.counts.files += fileRows.length;
    const evalRows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.row.extId);
      return taskId === undefined ? [] : t.evals.map((e) => ({ taskId, ...e }));
    });
    for (const part of chunks(evalRows)) await this.tx.execute(insertJson(evals, EVALS, part, { tail: sql`ON CONFLICT DO NOTHING` }));
  }

  private async writeTrials(batch: TrialInput[]): Promise<void> {
    const rows = batch.flatMap((t) => {
      const taskId = this.taskIds.get(t.taskExtId);
      if (taskId === undefined) return [];
      const known = this.trialSet(taskId);
      if (known.has(t.extId)) return [];
      known.add(t.extId);
      return [{ t, taskId }];
    });
    for (const part of chunks(rows, 1000)) {
      const inserted = await execRows<{ id: number; task_id: number; ext_id: string }>(
        this.tx,
        insertJson(
          trials,
          TRIALS,
          part.map(({ t, taskId }) => ({ ...t.row, taskId, extId: t.extId })),
          { extra: { columns: sql`run_id`, values: sql`${this.runId}::int` }, tail: sql`RETURNING id, task_id, ext_id` },
        ),
      );
      this.counts.trialsNew += inserted.length;
      const ids = new Map(inserted.map((r) => [`${r.task_id}\u0000${r.ext_id}`, r.id]));
      const testRows: TestRow[] = [];
      const logRows: LogRow[] = [];
      for (const { t, taskId } of part) {
        const trialId = ids.get(`${taskId}\u0000${t.extId}`);
        if (trialId === undefined) continue;
        t.tests.forEach((test, seq) => testRows.push({ trialId, seq, ...test }));
        for (const l of t.logs) logRows.push({ trialId, name: l.name, blobHash: l.stored.hash, bytes: l.stored.size, lines: l.lines, chunked: l.chunks !== null });
      }
      const t = trialTests;
      await copyRows(this.tx, t, [t.trialId, t.seq, t.name, t.status, t.durationMs, t.message, t.logName, t.logLine], testRows, (r) => [
        { int4: r.trialId },
        { int4: r.seq },
        { text: r.name },
        { text: r.status },
        r.durationMs === null ? null : { float8: r.durationMs },
        r.message === null ? null : { text: r.message },
        r.logName === null ? null : { text: r.logName },
        r.logLine === null ? null : { int4: r.logLine },
      ]);
      await this.writeLogChunks(part.flatMap(({ t }) => t.logs));
      const l = trialLogs;
      await copyRows(this.tx, l, [l.trialId, l.name, l.blobHash, l.bytes, l.lines, l.chunked], logRows, (r) => [
        { int4: r.trialId },
        { text: r.name },
        { text: r.blobHash },
        { int4: r.bytes },
        { int4: r.lines },
        { bool: r.chunked },
      ]);
    }
  }

  /** Line chunks of large logs, once per blob (the same log content shares its chunks). */
  private async writeLogChunks(logs: TrialInput["logs"]): Promise<void> {
    const rows: (typeof logChunks.$inferInsert)[] = [];
    for (const l of logs) {
      if (!l.chunks || this.chunkedBlobs.has(l.stored.hash)) continue;
      this.chunkedBlobs.add(l.stored.hash);
      for (const c of l.chunks) rows.push({ blobHash: l.stored.hash, ...c });
    }
    for (const c of chunks(rows, CHUNK_ROWS, (r) => r.content.length + 100)) {
      await this.tx.execute(insertJson(logChunks, LOG_CHUNKS, c, { tail: sql`ON CONFLICT DO NOTHING` }));
    }
  }

  /** Whether tasks must bring their search text even when the reader built their vector: the
   * database builds other vectors than the reader, so it makes them from the text. */
  get needsSearchText(): boolean {
    return !this.vectorsAgree;
  }

  /** The last writes of a good import: the pending rows, lineage (below), the GIN pending
   * lists merged into their indexes (or what tuneTransaction dropped put back), and fresh planner
   * statistics. */
  async finish(): Promise<void> {
    await this.flush();
    await linkRunLineage(this.tx, this.runId);
    for (const oid of this.endPlan.merge) await this.tx.execute(sql`SELECT gin_clean_pending_list(${oid}::oid::regclass)`);
    for (const statement of this.endPlan.rebuild) await this.tx.execute(sql.raw(statement));
    // Without them the first queries after an import are planned for tables the planner has not
    // seen (a round-statistics slice of a new paper-scale run was planned as a row-by-row join:
    // 20 s). ANALYZE works inside the transaction and counts its own rows; VACUUM cannot.
    await this.tx.execute(sql`ANALYZE ${tasks}, ${taskSearch}, ${trials}`);
  }

  async taskCountInRun(): Promise<number> {
    const [row] = await this.tx.select({ n: sql<number>`count(*)::int` }).from(tasks).where(eq(tasks.runId, this.runId));
    return row?.n ?? 0;
  }
}
