// Validation trials of a task, and their logs read by line range or searched, never whole.
import { and, asc, eq, gt, inArray, lt } from "drizzle-orm";
import type { CheckKind } from "@/lib/domain";
import { storedBytes, storedText } from "@/lib/ingest/content";
import { CHUNK_MAX_LINES } from "@/lib/ingest/log-chunks";
import { displayLine, LINE_CAP, stripEscapes } from "@/lib/log/lines";
import type { LogSearch, SearchResult } from "@/lib/log/search";
import { testOrder, verdictOf, type Verdict } from "@/lib/trials/verdict";
import type { Db } from "../client";
import { blobs, logChunks, runs, tasks, trialLogs, trials, trialTests } from "../schema";

export interface TrialTestJson {
  name: string;
  status: string;
  duration_ms: number | null;
  message: string | null;
  log_name: string | null;
  log_line: number | null;
}

export interface TrialLogJson {
  name: string;
  lines: number;
  bytes: number;
}

type Phases = Record<string, { started_at: string | null; finished_at: string | null }>;

export interface TrialJson {
  id: number;
  ext_id: string;
  task_id: number | null;
  check: CheckKind;
  verdict: Verdict;
  agent_name: string | null;
  model_name: string | null;
  reward: number | null;
  rewards: Record<string, number> | null;
  exception_type: string | null;
  exception_message: string | null;
  started_at: string | null;
  finished_at: string | null;
  phases: Phases;
  problems: string[];
  source: string | null;
  content_hash: string | null;
  tests: TrialTestJson[];
  logs: TrialLogJson[];
}

const CHECK_ORDER: Record<CheckKind, number> = { oracle: 0, repeat: 1, nop: 2, "parent-solution": 3, agent: 4 };

function iso(d: Date | string | null): string | null {
  return d === null ? null : new Date(d).toISOString();
}

/** Trials with their tests (failing first) and log list, in check order then start time. */
async function trialsWhere(db: Db, where: ReturnType<typeof eq>): Promise<TrialJson[]> {
  const rows = await db.select().from(trials).where(where);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [tests, logs] = await Promise.all([
    db.select().from(trialTests).where(inArray(trialTests.trialId, ids)).orderBy(asc(trialTests.trialId), asc(trialTests.seq)),
    db
      .select({ trialId: trialLogs.trialId, name: trialLogs.name, lines: trialLogs.lines, bytes: trialLogs.bytes })
      .from(trialLogs)
      .where(inArray(trialLogs.trialId, ids))
      .orderBy(asc(trialLogs.trialId), asc(trialLogs.name)),
  ]);
  const byTrial = new Map<number, TrialJson>();
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
      tests: [],
      logs: [],
    };
    byTrial.set(r.id, t);
    return t;
  });
  for (const x of tests) {
    byTrial.get(x.trialId)?.tests.push({ name: x.name, status: x.status, duration_ms: x.durationMs, message: x.message, log_name: x.logName, log_line: x.logLine });
  }
  for (const l of logs) byTrial.get(l.trialId)?.logs.push({ name: l.name, lines: l.lines, bytes: l.bytes });
  for (const t of out) t.tests.sort((a, b) => testOrder(a.status) - testOrder(b.status));
  return out.sort(
    (a, b) => CHECK_ORDER[a.check] - CHECK_ORDER[b.check] || (a.started_at ?? "").localeCompare(b.started_at ?? "") || a.ext_id.localeCompare(b.ext_id),
  );
}

/** The task's trials, or null when there is no such task. */
export async function listTaskTrials(db: Db, taskId: number): Promise<TrialJson[] | null> {
  const [task] = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId));
  return task ? trialsWhere(db, eq(trials.taskId, taskId)) : null;
}

export interface TrialDetail extends TrialJson {
  task_ext_id: string | null;
  run: string;
}

export async function getTrial(db: Db, trialId: number): Promise<TrialDetail | null> {
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

export interface LogRangeJson {
  name: string;
  total_lines: number;
  bytes: number;
  from: number;
  to: number;
  lines: string[];
  /** lines cut at LINE_CAP characters, with their full length */
  clipped: { line: number; chars: number }[];
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
  const visible = (lines: string[]) => lines.map((l) => stripEscapes(displayLine(l)));
  if (!meta.chunked) {
    const { lines } = await rawLines(db, meta, 0, meta.lines);
    search.scan(visible(lines), 0);
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
    for (const r of rows) search.scan(visible(r.content.split("\n")), r.firstLine);
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

