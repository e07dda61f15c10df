// Validation trials of a task, and their logs read by line range or searched, never whole.
import { and, asc, eq, getTableColumns, gt, inArray, lt, sql } from "drizzle-orm";
import type { CheckKind } from "@/lib/domain";
import { storedBytes, storedText } from "@/lib/ingest/content";
import { CHUNK_MAX_LINES } from "@/lib/ingest/log-chunks";
import { displayLine, LINE_CAP, visibleLines } from "@/lib/log/lines";
import type { LogSearch, SearchResult } from "@/lib/log/search";
import type { LogRangeJson, RecurringException, RunValidationJson, TrialDetailJson, TrialJson, TrialLogJson, UnvalidatedTask, ValidationCell } from "@/lib/api/types";
import { testOrder, verdictOf } from "@/lib/trials/verdict";
import { execRows, type Db } from "../client";
import { blobs, imports, logChunks, runs, tasks, trialLogs, trials, trialTests } from "../schema";

const CHECK_ORDER: Record<CheckKind, number> = { oracle: 0, repeat: 1, nop: 2, "parent-solution": 3, agent: 4 };

function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

type TestRow = { name: string; status: TrialJson["tests"][number]["status"]; duration_ms: number | null; message: string | null; log_name: string | null; log_line: number | null };

/** Trials with their tests (failing first) and log list, in check order then start time: one query. */
async function trialsWhere(db: Db, where: ReturnType<typeof eq>): Promise<TrialJson[]> {
  const rows = await db
    .select({
      ...getTableColumns(trials),
      tests: sql<TestRow[]>`(SELECT coalesce(json_agg(json_build_object('name', x.name, 'status', x.status, 'duration_ms', x.duration_ms,
          'message', x.message, 'log_name', x.log_name, 'log_line', x.log_line) ORDER BY x.seq), '[]'::json)
        FROM ${trialTests} x WHERE x.trial_id = ${trials.id})`,
      logs: sql<TrialLogJson[]>`(SELECT coalesce(json_agg(json_build_object('name', l.name, 'lines', l.lines, 'bytes', l.bytes) ORDER BY l.name), '[]'::json)
        FROM ${trialLogs} l WHERE l.trial_id = ${trials.id})`,
    })
    .from(trials)
    .where(where);
  if (rows.length === 0) return [];
  const out = rows.map((r) => {
    const t: TrialJson = {
      id: r.id,
      ext_id: r.extId,
      task_id: r.taskId,
      check: r.check,
      verdict: verdictOf(r.check, r.reward, r.exceptionType),
      agent_name: r.agentName,
      model_name: r.modelName,
      reward: r.reward,
      rewards: r.rewards,
      exception_type: r.exceptionType,
      exception_message: r.exceptionMessage,
      started_at: iso(r.startedAt),
      finished_at: iso(r.finishedAt),
      phases: r.phases ?? {},
      problems: r.problems ?? [],
      source: r.source,
      content_hash: r.contentHash,
      tests: r.tests,
      logs: r.logs,
    };
    return t;
  });
  for (const t of out) t.tests.sort((a, b) => testOrder(a.status) - testOrder(b.status));
  return out.sort(
    (a, b) => CHECK_ORDER[a.check] - CHECK_ORDER[b.check] || (a.started_at ?? "").localeCompare(b.started_at ?? "") || a.ext_id.localeCompare(b.ext_id),
  );
}

/** The trials of a task known to exist (the review screen's member). */
export async function trialsOfTask(db: Db, taskId: number): Promise<TrialJson[]> {
  return trialsWhere(db, eq(trials.taskId, taskId));
}

/** The task's trials, or null when there is no such task. */
export async function listTaskTrials(db: Db, taskId: number): Promise<TrialJson[] | null> {
  const [task] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId));
  return task ? trialsWhere(db, eq(trials.taskId, taskId)) : null;
}


export async function getTrial(db: Db, trialId: number): Promise<TrialDetailJson | null> {
  const [t] = await trialsWhere(db, eq(trials.id, trialId));
  if (!t) return null;
  const [ctx] = await db
    .select({ taskExtId: tasks.extId, run: runs.name })
    .from(trials)
    .innerJoin(runs, eq(runs.id, trials.runId))
    .leftJoin(tasks, eq(tasks.id, trials.taskId))
    .where(eq(trials.id, trialId));
  return { ...t, task_ext_id: ctx?.taskExtId ?? null, run: ctx?.run ?? "" };
}

/** One log of a trial: where its lines are, and what the page around it needs. */
export interface LogMeta {
  trialId: number;
  taskId: number | null;
  taskExtId: string | null;
  trialExtId: string;
  check: CheckKind;
  name: string;
  lines: number;
  bytes: number;
  chunked: boolean;
  blobHash: string;
  logs: TrialLogJson[];
}

export async function getLogMeta(db: Db, trialId: number, name: string): Promise<LogMeta | null> {
  const [row] = await db
    .select({
      trialExtId: trials.extId,
      taskId: trials.taskId,
      taskExtId: tasks.extId,
      check: trials.check,
      lines: trialLogs.lines,
      bytes: trialLogs.bytes,
      chunked: trialLogs.chunked,
      blobHash: trialLogs.blobHash,
    })
    .from(trialLogs)
    .innerJoin(trials, eq(trials.id, trialLogs.trialId))
    .leftJoin(tasks, eq(tasks.id, trials.taskId))
    .where(and(eq(trialLogs.trialId, trialId), eq(trialLogs.name, name)));
  if (!row) return null;
  const logs = await db
    .select({ name: trialLogs.name, lines: trialLogs.lines, bytes: trialLogs.bytes })
    .from(trialLogs)
    .where(eq(trialLogs.trialId, trialId))
    .orderBy(asc(trialLogs.name));
  return { trialId, name, ...row, logs };
}


/** Raw lines [from, to) as stored (clipped), with the clipped ones' full lengths. */
async function rawLines(db: Db, meta: LogMeta, from: number, to: number): Promise<{ lines: string[]; clipped: Map<number, number> }> {
  const clipped = new Map<number, number>();
  if (from >= to) return { lines: [], clipped };
  if (!meta.chunked) {
    const [blob] = await db.select({ encoding: blobs.encoding, content: blobs.content }).from(blobs).where(eq(blobs.hash, meta.blobHash));
    const all = splitLines(blob ? storedText(blob) : "").slice(from, to);
    const lines = all.map((l, i) => {
      if (l.length <= LINE_CAP) return l;
      clipped.set(from + i, l.length);
      return l.slice(0, LINE_CAP);
    });
    return { lines, clipped };
  }
  // Chunks hold at most CHUNK_MAX_LINES lines, so only those starting in this band can overlap
  // the range: an index range scan on (blob_hash, first_line), whatever the log's size.
  const rows = await db
    .select({ firstLine: logChunks.firstLine, content: logChunks.content, clipped: logChunks.clipped })
    .from(logChunks)
    .where(and(eq(logChunks.blobHash, meta.blobHash), gt(logChunks.firstLine, from - CHUNK_MAX_LINES), lt(logChunks.firstLine, to)))
    .orderBy(asc(logChunks.firstLine));
  const lines: string[] = [];
  for (const r of rows) {
    for (const [at, chars] of r.clipped ?? []) clipped.set(r.firstLine + at, chars);
    const chunk = r.content.split("\n");
    const start = Math.max(0, from - r.firstLine);
    const end = Math.min(chunk.length, to - r.firstLine);
    for (let i = start; i < end; i++) lines.push(chunk[i] ?? "");
  }
  return { lines, clipped };
}

/** The log's lines as countLines counts them. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  return (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
}

export async function readLogRange(db: Db, meta: LogMeta, fromLine: number, toLine: number): Promise<LogRangeJson> {
  const from = Math.max(0, Math.min(fromLine, meta.lines));
  const to = Math.max(from, Math.min(toLine, meta.lines));
  const { lines, clipped } = await rawLines(db, meta, from, to);
  return {
    name: meta.name,
    total_lines: meta.lines,
    bytes: meta.bytes,
    from,
    to: from + lines.length,
    lines: lines.map(displayLine),
    clipped: [...clipped].filter(([line]) => line >= from && line < to).map(([line, chars]) => ({ line, chars })),
  };
}

/** Chunks read per query while searching: bounded memory whatever the log's size. */
const SEARCH_CHUNKS_PER_QUERY = 32;

/** Every line of the log through `search`, as the viewer shows it (escapes stripped). */
export async function searchLog(db: Db, meta: LogMeta, search: LogSearch): Promise<SearchResult> {
  if (!meta.chunked) {
    const { lines } = await rawLines(db, meta, 0, meta.lines);
    search.scan(visibleLines(lines.join("\n")), 0);
    return search.result();
  }
  let after = -1;
  for (;;) {
    const rows = await db
      .select({ firstLine: logChunks.firstLine, content: logChunks.content })
      .from(logChunks)
      .where(and(eq(logChunks.blobHash, meta.blobHash), gt(logChunks.firstLine, after)))
      .orderBy(asc(logChunks.firstLine))
      .limit(SEARCH_CHUNKS_PER_QUERY);
    for (const r of rows) search.scan(visibleLines(r.content), r.firstLine);
    const last = rows[rows.length - 1];
    if (!last || rows.length < SEARCH_CHUNKS_PER_QUERY) break;
    after = last.firstLine;
  }
  return search.result();
}

/** The log's exact bytes, for download. */
export async function readLogBytes(db: Db, meta: LogMeta): Promise<Buffer> {
  const [blob] = await db.select({ encoding: blobs.encoding, content: blobs.content }).from(blobs).where(eq(blobs.hash, meta.blobHash));
  return blob ? storedBytes(blob) : Buffer.alloc(0);
}


/** The unvalidated tasks the Validation page lists; the page as stored is this length. */
export const VALIDATION_LIMIT = 200;

/**
 * Validation of a whole run (computeValidation), as stored after the run's latest finished import:
 * tasks and trials change only through imports, and computing it reads every trial of the run
 * (≈ 0.8 s at paper scale). An import is marked done after its transaction commits, so a page
 * computed while one was under way carries an older import's id, and the next read computes it again.
 */
export async function runValidation(db: Db, runName: string, limit = VALIDATION_LIMIT): Promise<RunValidationJson | null> {
  const [run] = await execRows<{ id: number; validation: { import_id: number; value: RunValidationJson } | null; latest: number | null }>(
    db,
    sql`SELECT r.id, r.validation,
          (SELECT max(i.id) FROM ${imports} i WHERE i.run_name = r.name AND i.status IN ('done', 'unchanged')) AS latest
        FROM ${runs} r WHERE r.name = ${runName}`,
  );
  if (!run) return null;
  const latest = run.latest === null ? null : Number(run.latest);
  const keep = limit === VALIDATION_LIMIT && latest !== null;
  if (keep && run.validation?.import_id === latest) return run.validation.value;
  const value = await computeValidation(db, run.id, runName, limit);
  if (keep) await db.update(runs).set({ validation: { import_id: latest, value } }).where(eq(runs.id, run.id));
  return value;
}

/** Validation of a whole run, computed by the database: outcomes per round and check kind, the
 * exceptions that recur, and the tasks no oracle run ever judged (no trial, or only errors). */
async function computeValidation(db: Db, runId: number, runName: string, limit: number): Promise<RunValidationJson> {
  // Grouped by the reward's class so that verdictOf stays the one definition of a verdict.
  const groups = await execRows<{ round: number; check: CheckKind; reward: number | null; exc: boolean; n: number }>(
    db,
    sql`SELECT t.round, tr."check",
          (CASE WHEN tr.reward IS NULL THEN NULL WHEN tr.reward >= 1 - 1e-9 THEN 1 WHEN tr.reward = 0 THEN 0 ELSE 0.5 END)::float8 AS reward,
          tr.exception_type IS NOT NULL AS exc, count(*)::int AS n
        FROM trials tr JOIN tasks t ON t.id = tr.task_id
        WHERE tr.run_id = ${runId}
        GROUP BY 1, 2, 3, 4`,
  );
  const cells = new Map<string, ValidationCell>();
  for (const g of groups) {
    const verdict = verdictOf(g.check, g.reward, g.exc ? "exception" : null);
    const key = `${g.round}\u0000${g.check}\u0000${verdict}`;
    const cell = cells.get(key) ?? { round: g.round, check: g.check, verdict, trials: 0 };
    cell.trials += g.n;
    cells.set(key, cell);
  }
  const exceptions = await execRows<RecurringException>(
    db,
    sql`SELECT exception_type, count(*)::int AS trials, count(DISTINCT task_id)::int AS tasks,
          (array_agg(left(exception_message, 500) ORDER BY id))[1] AS example, (array_agg(task_id ORDER BY id))[1]::int AS example_task_id
        FROM trials WHERE run_id = ${runId} AND exception_type IS NOT NULL
        GROUP BY exception_type ORDER BY count(*) DESC, exception_type LIMIT 50`,
  );
  const judged = sql`tr.task_id = t.id AND tr."check" IN ('oracle', 'repeat') AND tr.reward IS NOT NULL`;
  const unvalidated = await execRows<UnvalidatedTask>(
    db,
    sql`SELECT t.id, t.ext_id AS task_id, t.round, t.status,
          (SELECT count(*)::int FROM trials x WHERE x.task_id = t.id) AS trials,
          (SELECT x.exception_type FROM trials x WHERE x.task_id = t.id AND x.exception_type IS NOT NULL
            ORDER BY x.finished_at DESC NULLS LAST, x.id DESC LIMIT 1) AS exception_type
        FROM tasks t
        WHERE t.run_id = ${runId} AND NOT EXISTS (SELECT 1 FROM trials tr WHERE ${judged})
        ORDER BY t.status, t.round, t.ext_id LIMIT ${limit}`,
  );
  const [total] = await execRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM tasks t WHERE t.run_id = ${runId} AND NOT EXISTS (SELECT 1 FROM trials tr WHERE ${judged})`,
  );
  return {
    run: runName,
    cells: [...cells.values()].sort((a, b) => a.round - b.round || a.check.localeCompare(b.check)),
    exceptions,
    unvalidated,
    unvalidated_total: total?.n ?? 0,
  };
}
