// What the consistency checks read (tasks, their files, their trials, in batches) and write
// (automatic flags tied to the content hash they were raised on).
import { sql } from "drizzle-orm";
import type { CheckKind, FlagRule, TaskStatus } from "@/lib/domain";
import type { Finding } from "@/lib/flags/types";
import { isPythonVerifierFile, pytestReader, shellReader, STEP_PYTEST_READER, STEP_SHELL_READER, type StoredReading } from "@/lib/checks/readings";
import type { CheckFile, CheckTask, CheckTrial } from "@/lib/checks/types";
import { execRows, type Db } from "../client";
import { checkReadings } from "../schema";
import { chunks, hashArray, insertJson } from "./bulk";
import { READINGS } from "./ingest-rows";
import { refreshOpenFlags } from "./flags";

const intArray = (ids: readonly number[]) => sql.raw(`'{${ids.map((id) => Math.trunc(id)).join(",")}}'::int[]`);

/** Environment files larger than this are data, not text a requirement could be told in. */
const MAX_TEXT_FILE = 256 * 1024;

export async function findRun(db: Db, name: string | undefined): Promise<{ id: number; name: string }[]> {
  const rows = await execRows<{ id: number; name: string }>(
    db,
    name === undefined ? sql`SELECT id, name FROM runs ORDER BY name` : sql`SELECT id, name FROM runs WHERE name = ${name}`,
  );
  return rows.map((r) => ({ id: Number(r.id), name: r.name }));
}

export async function runHasValidation(db: Db, runId: number): Promise<boolean> {
  const rows = await execRows<{ x: number }>(db, sql`SELECT 1 AS x FROM trials WHERE run_id = ${runId} AND "check" = 'oracle' LIMIT 1`);
  return rows.length > 0;
}

/** Accepted task ids of a run after `afterId`, in id order (a page of the full check). */
export async function acceptedTaskIds(db: Db, runId: number, afterId: number, limit: number): Promise<number[]> {
  const rows = await execRows<{ id: number }>(
    db,
    sql`SELECT id FROM tasks WHERE run_id = ${runId} AND status = 'accepted' AND id > ${afterId} ORDER BY id LIMIT ${limit}`,
  );
  return rows.map((r) => Number(r.id));
}

/** The given tasks plus their parents and children, accepted ones only, in id order. */
export async function withNeighbours(db: Db, runId: number, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await execRows<{ id: number }>(
    db,
    // Three index lookups joined by UNION: an OR across them makes PostgreSQL filter every row.
    sql`SELECT id FROM tasks WHERE run_id = ${runId} AND status = 'accepted' AND id = ANY(${intArray(ids)})
        UNION
        SELECT id FROM tasks WHERE run_id = ${runId} AND status = 'accepted' AND parent_id = ANY(${intArray(ids)})
        UNION
        SELECT p.id FROM tasks c JOIN tasks p ON p.id = c.parent_id
        WHERE c.id = ANY(${intArray(ids)}) AND p.run_id = ${runId} AND p.status = 'accepted'
        ORDER BY id`,
  );
  return rows.map((r) => Number(r.id));
}

interface TaskRow {
  id: number;
  ext_id: string;
  status: TaskStatus;
  content_hash: string;
  parent_id: number | null;
}

/** Accepted tasks of a run (how many a full check reads). */
export async function countAccepted(db: Db, runId: number): Promise<number> {
  const [row] = await execRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM tasks WHERE run_id = ${runId} AND status = 'accepted'`);
  return Number(row?.n ?? 0);
}

/**
 * A batch of tasks to check and their parents, in two queries, with only the files the rules
 * read: instruction.md, tests/…, solution/… (text of solve.sh only: the other solution files
 * count by their hash), and environment/… for the checked tasks (a parent's is never read).
 */
export async function loadBatch(db: Db, ids: readonly number[]): Promise<{ tasks: CheckTask[]; parents: CheckTask[] }> {
  if (ids.length === 0) return { tasks: [], parents: [] };
  const rows = await execRows<TaskRow>(
    db,
    // The tasks and their parents as two index lookups (UNION): with an OR between them PostgreSQL
    // read every task of the database once per batch (0.3–0.6 s a batch at paper scale).
    sql`SELECT id, ext_id, status, content_hash, parent_id FROM tasks WHERE id = ANY(${intArray(ids)})
        UNION
        SELECT p.id, p.ext_id, p.status, p.content_hash, p.parent_id FROM tasks c JOIN tasks p ON p.id = c.parent_id
        WHERE c.id = ANY(${intArray(ids)})
        ORDER BY id`,
  );
  const all = rows.map((r) => Number(r.id));
  const files = await execRows<{ task_id: number; path: string; blob_hash: string; content: string }>(
    db,
    // Binary and large files come with their path only: a data file is told by being there.
    sql`SELECT f.task_id, f.path, f.blob_hash,
               CASE WHEN b.encoding = 'utf8' AND f.size <= ${MAX_TEXT_FILE} AND (f.path NOT LIKE 'solution/%' OR f.path = 'solution/solve.sh') THEN b.content ELSE '' END AS content
        FROM task_files f JOIN blobs b ON b.hash = f.blob_hash
        WHERE f.task_id = ANY(${intArray(all)})
          AND (f.path = 'instruction.md' OR f.path LIKE 'solution/%' OR f.path LIKE 'tests/%'
               OR (f.path LIKE 'environment/%' AND f.task_id = ANY(${intArray(ids)})))`,
  );
  const byTask = new Map<number, Map<string, CheckFile>>();
  for (const f of files) {
    const id = Number(f.task_id);
    let m = byTask.get(id);
    if (!m) byTask.set(id, (m = new Map()));
    m.set(f.path, { path: f.path, hash: f.blob_hash, text: f.content });
  }
  const wanted = new Set(ids);
  const tasks: CheckTask[] = [];
  const parents: CheckTask[] = [];
  const parentIds = new Set<number>();
  for (const r of rows) {
    const t: CheckTask = {
      id: Number(r.id),
      extId: r.ext_id,
      status: r.status,
      contentHash: r.content_hash,
      parentId: r.parent_id === null ? null : Number(r.parent_id),
      files: byTask.get(Number(r.id)) ?? new Map(),
    };
    if (wanted.has(t.id)) {
      tasks.push(t);
      if (t.parentId !== null) parentIds.add(t.parentId);
    }
  }
  const ownById = new Map(tasks.map((t) => [t.id, t]));
  for (const r of rows) {
    const id = Number(r.id);
    if (!parentIds.has(id)) continue;
    const own = ownById.get(id);
    parents.push(
      own ?? { id, extId: r.ext_id, status: r.status, contentHash: r.content_hash, parentId: r.parent_id === null ? null : Number(r.parent_id), files: byTask.get(id) ?? new Map() },
    );
  }
  return { tasks, parents };
}

/** What the import stored of these tasks' files for the checks (lib/checks/readings.ts), current version only. */
export async function loadReadings(db: Db, batch: { tasks: readonly CheckTask[]; parents: readonly CheckTask[] }): Promise<StoredReading[]> {
  const hashes = new Set<string>();
  // Every verifier is read; a solution only as a child's own (never a seed's, never as a parent).
  for (const t of [...batch.tasks, ...batch.parents]) for (const f of t.files.values()) if (isPythonVerifierFile(f.path)) hashes.add(f.hash);
  for (const t of batch.tasks) {
    const solve = t.files.get("solution/solve.sh");
    if (solve && t.parentId !== null) hashes.add(solve.hash);
  }
  if (hashes.size === 0) return [];
  return execRows<StoredReading>(
    db,
    sql`SELECT hash, reader, reading FROM check_readings
        WHERE hash = ANY(${hashArray([...hashes])}) AND (reader = ${pytestReader()} OR starts_with(reader, ${shellReader(null)}))`,
  );
}

/**
 * What the import stored for step summaries (lib/checks/readings readForSteps), current version
 * only: of these blobs, or of every file of these tasks (one query that needs no file list first).
 */
export async function loadStepReadings(db: Db, of: { hashes: readonly string[] } | { taskIds: readonly number[] }): Promise<StoredReading[]> {
  const readers = sql`r.reader IN (${STEP_SHELL_READER}, ${STEP_PYTEST_READER})`;
  if ("hashes" in of) {
    if (of.hashes.length === 0) return [];
    // The hashes as one parameter (not spliced in), so that the statement's text never varies.
    const hashes = `{${[...new Set(of.hashes)].join(",")}}`;
    return execRows<StoredReading>(db, sql`SELECT r.hash, r.reader, r.reading FROM check_readings r WHERE r.hash = ANY(${hashes}::text[]) AND ${readers}`, {
      prepared: true,
    });
  }
  if (of.taskIds.length === 0) return [];
  return execRows<StoredReading>(
    db,
    sql`SELECT r.hash, r.reader, r.reading FROM task_files f JOIN check_readings r ON r.hash = f.blob_hash
        WHERE f.task_id = ANY(${intArray(of.taskIds)}) AND (f.path = 'solution/solve.sh' OR f.path LIKE 'tests/%.py') AND ${readers}`,
  );
}

/** Stores readings (idempotent: a reading is a function of its blob and reader). */
export async function storeReadings(db: Db, rows: readonly StoredReading[]): Promise<void> {
  const unique = [...new Map(rows.map((r) => [`${r.reader}\u0000${r.hash}`, r])).values()];
  for (const part of chunks(unique, 500)) {
    await db.execute(insertJson(checkReadings, READINGS, part, { tail: sql`ON CONFLICT DO NOTHING` }));
  }
}

/**
 * The tasks' trials. Per-test results and log names are loaded only for trials whose verdict is
 * not what their check expects (the only ones a finding points into): at paper scale the
 * expected ones hold most of the two million test rows.
 */
export async function loadTrials(db: Db, taskIds: readonly number[]): Promise<Map<number, CheckTrial[]>> {
  const out = new Map<number, CheckTrial[]>();
  if (taskIds.length === 0) return out;
  const rows = await execRows<{
    id: number;
    ext_id: string;
    task_id: number;
    check: CheckKind;
    reward: number | null;
    exception_type: string | null;
    exception_message: string | null;
    content_hash: string | null;
  }>(
    db,
    sql`SELECT id, ext_id, task_id, "check", reward, exception_type, left(exception_message, 400) AS exception_message, content_hash
        FROM trials WHERE task_id = ANY(${intArray(taskIds)}) ORDER BY id`,
  );
  const byId = new Map<number, CheckTrial>();
  for (const r of rows) {
    const t: CheckTrial = {
      id: Number(r.id),
      extId: r.ext_id,
      check: r.check,
      reward: r.reward === null ? null : Number(r.reward),
      exceptionType: r.exception_type,
      exceptionMessage: r.exception_message,
      contentHash: r.content_hash,
      tests: [],
      logs: [],
    };
    byId.set(t.id, t);
    const list = out.get(Number(r.task_id)) ?? [];
    list.push(t);
    out.set(Number(r.task_id), list);
  }
  const unexpected = [...byId.values()]
    .filter((t) => t.reward === null || ((t.check === "oracle" || t.check === "repeat") && t.reward < 1) || ((t.check === "nop" || t.check === "parent-solution") && t.reward > 0))
    .map((t) => t.id);
  if (unexpected.length > 0) {
    const [tests, logs] = await Promise.all([
      execRows<{ trial_id: number; name: string; status: string; message: string | null; log_name: string | null; log_line: number | null }>(
        db,
        sql`SELECT trial_id, name, status, left(message, 300) AS message, log_name, log_line FROM trial_tests WHERE trial_id = ANY(${intArray(unexpected)}) ORDER BY trial_id, seq`,
      ),
      execRows<{ trial_id: number; name: string }>(db, sql`SELECT trial_id, name FROM trial_logs WHERE trial_id = ANY(${intArray(unexpected)}) ORDER BY trial_id, name`),
    ]);
    for (const x of tests) {
      byId.get(Number(x.trial_id))?.tests.push({ name: x.name, status: x.status, message: x.message, logName: x.log_name, logLine: x.log_line === null ? null : Number(x.log_line) });
    }
    for (const l of logs) byId.get(Number(l.trial_id))?.logs.push(l.name);
  }
  return out;
}

/**
 * Writes the findings for tasks evaluated under `rules`: new automatic flags open (a flag already
 * raised on the same content is left as it is, dismissed ones included), a flag this check had
 * resolved as no longer found reopens when found again, and open automatic flags of these rules
 * on the tasks' current content that no longer fire are resolved. Then the tasks' open-flag
 * counts are recounted. Returns the number of new flags.
 */
export async function writeFindings(
  db: Db,
  evaluated: readonly { id: number; contentHash: string }[],
  rules: readonly FlagRule[],
  findings: readonly Finding[],
): Promise<{ inserted: number; resolved: number; reopened: number }> {
  if (evaluated.length === 0) return { inserted: 0, resolved: 0, reopened: 0 };
  const hashOf = new Map(evaluated.map((t) => [t.id, t.contentHash]));
  let inserted = 0;
  let reopened = 0;
  const fired: string[] = [];
  const CHUNK = 500;
  for (let i = 0; i < findings.length; i += CHUNK) {
    const chunk = findings.slice(i, i + CHUNK);
    const values = sql.join(
      chunk.map((f) => sql`(${f.taskId}, ${f.rule}, 'auto', 'open', ${f.severity}, ${f.message}, ${JSON.stringify(f.evidence)}::jsonb, ${hashOf.get(f.taskId) ?? ""})`),
      sql`, `,
    );
    const rows = await execRows<{ id: number }>(
      db,
      sql`INSERT INTO flags (task_id, rule, source, status, severity, message, evidence, content_hash) VALUES ${values}
          ON CONFLICT (task_id, rule, content_hash) WHERE source = 'auto' DO NOTHING RETURNING id`,
    );
    inserted += rows.length;
    for (const f of chunk) fired.push(`${f.taskId}:${f.rule}`);
  }
  const ids = evaluated.map((t) => t.id);
  const ruleList = sql.raw(`'{${rules.map((r) => r.replace(/[^a-z-]/g, "")).join(",")}}'::text[]`);
  // Ids are integers and rule ids [a-z-]: the array literal needs no escaping beyond the filter.
  const firedList = sql.raw(`'{${fired.map((k) => `"${k.replace(/[^0-9a-z:-]/g, "")}"`).join(",")}}'::text[]`);
  if (fired.length > 0) {
    const rows = await execRows<{ id: number }>(
      db,
      sql`UPDATE flags f SET status = 'open', resolved_at = NULL, resolved_by = NULL, resolution = NULL
          FROM tasks t
          WHERE t.id = f.task_id AND f.source = 'auto' AND f.status = 'resolved' AND f.resolution = 'no longer found'
            AND f.content_hash = t.content_hash AND f.task_id = ANY(${intArray(ids)})
            AND (f.task_id::text || ':' || f.rule) = ANY(${firedList})
          RETURNING f.id`,
    );
    reopened = rows.length;
  }
  const resolvedRows = await execRows<{ id: number }>(
    db,
    sql`UPDATE flags f SET status = 'resolved', resolved_at = now(), resolution = 'no longer found'
        FROM tasks t
        WHERE t.id = f.task_id AND f.source = 'auto' AND f.status = 'open' AND f.content_hash = t.content_hash
          AND f.task_id = ANY(${intArray(ids)}) AND f.rule = ANY(${ruleList})
          AND NOT ((f.task_id::text || ':' || f.rule) = ANY(${firedList}))
        RETURNING f.id`,
  );
  await refreshOpenFlags(db, ids);
  return { inserted, resolved: resolvedRows.length, reopened };
}

/** Task ids by external id in a run (the accuracy report matches truth.jsonl on them). */
export async function extIdsOf(db: Db, runId: number): Promise<Map<number, string>> {
  const rows = await execRows<{ id: number; ext_id: string }>(db, sql`SELECT id, ext_id FROM tasks WHERE run_id = ${runId}`);
  return new Map(rows.map((r) => [Number(r.id), r.ext_id]));
}

/** Open automatic flags of a run's tasks on their current content: (task ext id, rule). */
export async function openAutoFlags(db: Db, runId: number): Promise<{ extId: string; rule: string }[]> {
  return execRows<{ extId: string; rule: string }>(
    db,
    sql`SELECT t.ext_id AS "extId", f.rule FROM flags f JOIN tasks t ON t.id = f.task_id
        WHERE t.run_id = ${runId} AND f.source = 'auto' AND f.status IN ('open', 'dismissed') AND f.content_hash = t.content_hash`,
  );
}

/** A snapshot the ingest hook compares against: task content hashes and the newest trial id. */
export async function runSnapshot(db: Db, runName: string): Promise<{ runId: number; hashes: Map<number, string>; maxTrialId: number } | null> {
  const [run] = await findRun(db, runName);
  if (!run) return null;
  const rows = await execRows<{ id: number; content_hash: string }>(db, sql`SELECT id, content_hash FROM tasks WHERE run_id = ${run.id}`);
  const [max] = await execRows<{ m: number | null }>(db, sql`SELECT max(id) AS m FROM trials WHERE run_id = ${run.id}`);
  return { runId: run.id, hashes: new Map(rows.map((r) => [Number(r.id), r.content_hash])), maxTrialId: Number(max?.m ?? 0) };
}

/** Tasks of a run that are new or changed since the snapshot, or got trials since. */
export async function changedSince(db: Db, runId: number, before: { hashes: Map<number, string>; maxTrialId: number } | null): Promise<number[]> {
  const rows = await execRows<{ id: number; content_hash: string }>(db, sql`SELECT id, content_hash FROM tasks WHERE run_id = ${runId}`);
  const out = new Set<number>();
  for (const r of rows) if (!before || before.hashes.get(Number(r.id)) !== r.content_hash) out.add(Number(r.id));
  const trialRows = await execRows<{ task_id: number }>(
    db,
    sql`SELECT DISTINCT task_id FROM trials WHERE run_id = ${runId} AND id > ${before?.maxTrialId ?? 0} AND task_id IS NOT NULL`,
  );
  for (const r of trialRows) out.add(Number(r.task_id));
  return [...out].sort((a, b) => a - b);
}
