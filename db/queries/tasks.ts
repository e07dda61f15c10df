// The task table and the task page. List queries select only columns; file bytes never ride along.
import { and, asc, desc, eq, getTableName, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { FacetsJson, TaskDetailJson, TaskListJson, TaskRefJson, TaskRowJson } from "@/lib/api/types";
import type { RangeMetric, SortColumn, TaskFilter } from "@/lib/tasks/filter";
import { RANGE_METRICS } from "@/lib/tasks/filter";
import { needsPositions, searchTerms } from "@/lib/tasks/search";
import { NO_REASON } from "@/lib/domain";
import { passAtK } from "@/lib/metrics/pass-at-k";
import { COUNT_CAPS, countCap, totalFromCappedCount, totalFromPage, type CountCaps } from "@/lib/tasks/total";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { execRows, type Db } from "../client";
import { blobs, evals, runs, taskFiles, tasks, taskSearch, trials } from "../schema";
import { listReviews } from "./reviews";
import { phraseScope, planTextSearch, searchPlans, searchRowMatch, textMatch, type PhraseScope, type SearchPlan } from "./task-search";

const rowColumns = {
  id: tasks.id,
  extId: tasks.extId,
  run: runs.name,
  parentId: tasks.parentId,
  round: tasks.round,
  status: tasks.status,
  rejectionReason: tasks.rejectionReason,
  operator: tasks.operator,
  category: tasks.category,
  review: tasks.reviewState,
  solutionLines: tasks.solutionLines,
  commands: tasks.commands,
  distinctTools: tasks.distinctTools,
  instructionWords: tasks.instructionWords,
  verifierTests: tasks.verifierTests,
  passAtK: tasks.passAtK,
  meanReward: tasks.meanReward,
  openFlags: tasks.openFlags,
};

type RowSelect = { [K in keyof typeof rowColumns]: (typeof rowColumns)[K]["_"]["data"] | null };

function toRowJson(r: RowSelect): TaskRowJson {
  return {
    id: r.id ?? 0,
    task_id: r.extId ?? "",
    run: r.run ?? "",
    parent_id: r.parentId,
    round: r.round,
    status: r.status ?? "accepted",
    rejection_reason: r.rejectionReason,
    operator: r.operator,
    category: r.category,
    review: r.review ?? "unreviewed",
    solution_lines: r.solutionLines,
    commands: r.commands,
    distinct_tools: r.distinctTools,
    instruction_words: r.instructionWords,
    verifier_tests: r.verifierTests,
    pass_at_k: r.passAtK,
    mean_reward: r.meanReward,
    open_flags: r.openFlags ?? 0,
  };
}

const SORTS: Record<SortColumn, AnyPgColumn> = {
  id: tasks.extId,
  round: tasks.round,
  status: tasks.status,
  operator: tasks.operator,
  category: tasks.category,
  review: tasks.reviewState,
  solution_lines: tasks.solutionLines,
  commands: tasks.commands,
  distinct_tools: tasks.distinctTools,
  instruction_words: tasks.instructionWords,
  verifier_tests: tasks.verifierTests,
  pass_at_k: tasks.passAtK,
  mean_reward: tasks.meanReward,
  flags: tasks.openFlags,
};

const RANGE_COLUMNS: Record<RangeMetric, AnyPgColumn> = {
  solution_lines: tasks.solutionLines,
  commands: tasks.commands,
  distinct_tools: tasks.distinctTools,
  instruction_words: tasks.instructionWords,
  verifier_tests: tasks.verifierTests,
  pass_at_k: tasks.passAtK,
};

/** The id of the run named `name` (none: no task matches). */
export const runNamed = (name: string): SQL => sql`(SELECT id FROM ${runs} WHERE name = ${name})`;

/**
 * The WHERE clause of a filter; shared with bulk actions so they apply to exactly this set.
 * `plan`: how a text search is matched (textMatch; searchPlans decides), by default as a set;
 * `scope`: the tasks its phrases can match (phraseScope), if known.
 */
export function taskFilterWhere(f: TaskFilter, plan: SearchPlan = "set", scope: PhraseScope = null): SQL | undefined {
  const c: (SQL | undefined)[] = [];
  if (f.run) c.push(sql`${tasks.runId} = ${runNamed(f.run)}`);
  if (f.round !== undefined) c.push(eq(tasks.round, f.round));
  if (f.round_min !== undefined) c.push(gte(tasks.round, f.round_min));
  if (f.round_max !== undefined) c.push(lte(tasks.round, f.round_max));
  if (f.status) c.push(eq(tasks.status, f.status));
  if (f.review) c.push(eq(tasks.reviewState, f.review));
  if (f.operator) c.push(eq(tasks.operator, f.operator));
  if (f.category) c.push(eq(tasks.category, f.category));
  if (f.root !== undefined) c.push(eq(tasks.rootId, f.root));
  // The round statistics count a missing reason as NO_REASON: the filter matches the same tasks.
  if (f.reason === NO_REASON) c.push(sql`coalesce(${tasks.rejectionReason}, ${NO_REASON}) = ${NO_REASON}`);
  else if (f.reason) c.push(eq(tasks.rejectionReason, f.reason));
  if (f.flag === "any") c.push(sql`${tasks.openFlags} > 0`);
  else if (f.flag === "none") c.push(sql`${tasks.openFlags} = 0`);
  // An automatic flag on an older revision is outdated, not open (db/queries/flags.ts).
  else if (f.flag) {
    c.push(sql`EXISTS (SELECT 1 FROM flags fl WHERE fl.task_id = ${tasks.id} AND fl.rule = ${f.flag} AND fl.status = 'open'
      AND (fl.source = 'manual' OR fl.content_hash = ${tasks.contentHash}))`);
  }
  if (f.q) c.push(textMatch(f.q, plan, scope));
  for (const m of RANGE_METRICS) {
    const min = f[`${m}_min`];
    const max = f[`${m}_max`];
    if (min !== undefined) c.push(gte(RANGE_COLUMNS[m], min));
    if (max !== undefined) c.push(lte(RANGE_COLUMNS[m], max));
  }
  return and(...c);
}

export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m?.[1] ? Number(m[1]) : 0;
}

/** The task table's answer: `total_is_estimate` says `total` is a lower bound (docs/api.md). */
export type TaskListResult = TaskListJson;

/**
 * One page of rows in `sort` order, ties broken by id, missing values last in both directions.
 *
 * The page is found first as ids only (a "deferred join"): skipping `offset` rows then reads
 * index entries, not 8 kB heap pages, and only the page's own rows are fetched whole. Every sort
 * column has a (run_id, column, id) index (migration 0016), so within a run a page reads only as
 * far as its end: ascending, `col ASC NULLS LAST, id` is the index's order; descending, an index
 * read backwards gives `DESC NULLS FIRST`, which PostgreSQL cannot use for `DESC NULLS LAST`, so
 * a nullable column is two index-ordered branches, the values and then the missing ones, each
 * cut at the page's end. Across runs, each run's first rows are taken that way and merged (a
 * handful of runs, each read as far as the page's end), except by round, which has a (round, id)
 * index of its own.
 */
async function pageRows(q: Db, where: SQL | undefined, f: TaskFilter, offset: number, limit: number): Promise<RowSelect[]> {
  const sortKey = (f.sort ?? "round").replace(/^-/, "") as SortColumn;
  const descending = f.sort?.startsWith("-") ?? false;
  const sortCol = SORTS[sortKey];
  const dir = descending ? sql`DESC` : sql`ASC`;
  const end = offset + limit + 1;
  // The ids and sort values of the first `end` matches of `cond`, in the page's order.
  const first = (cond: SQL | undefined): SQL => {
    const w = cond ?? sql`true`;
    const select = sql`SELECT ${tasks.id} AS id, ${sortCol} AS value FROM ${tasks}`;
    if (!descending || sortCol.notNull) {
      // On a NOT NULL column, plain DESC (nulls first) is the same order and matches the index.
      const nulls = descending ? sql`` : sql` NULLS LAST`;
      return sql`(${select} WHERE ${w} ORDER BY ${sortCol} ${dir}${nulls}, ${tasks.id} ${dir} LIMIT ${end})`;
    }
    return sql`(SELECT id, value FROM (
        (${select} WHERE ${w} AND ${sortCol} IS NOT NULL ORDER BY ${sortCol} DESC, ${tasks.id} DESC LIMIT ${end})
        UNION ALL
        (${select} WHERE ${w} AND ${sortCol} IS NULL ORDER BY ${tasks.id} DESC LIMIT ${end})
      ) AS branches ORDER BY value DESC NULLS LAST, id DESC LIMIT ${end})`;
  };
  const pageOrder = sql`ORDER BY p.value ${dir} NULLS LAST, p.id ${dir} LIMIT ${limit + 1} OFFSET ${offset}`;
  const ids =
    f.run || sortKey === "round"
      ? sql`SELECT p.id FROM ${first(where)} AS p ${pageOrder}`
      : sql`SELECT p.id FROM ${runs} AS page_run CROSS JOIN LATERAL ${first(and(where, sql`${tasks.runId} = page_run.id`))} AS p ${pageOrder}`;
  return q
    .select(rowColumns)
    .from(tasks)
    .innerJoin(runs, eq(runs.id, tasks.runId))
    .where(sql`${tasks.id} IN (${ids})`)
    .orderBy(descending ? sql`${sortCol} DESC NULLS LAST` : sql`${sortCol} ASC NULLS LAST`, descending ? desc(tasks.id) : asc(tasks.id));
}

/** TaskFilter keys that page or order the set; every other key narrows it. */
const NOT_NARROWING: ReadonlySet<string> = new Set(["q", "sort", "cursor", "limit"] satisfies (keyof TaskFilter)[]);

/** Whether a filter is a text search and nothing else but, at most, a run. */
function searchOnly(f: TaskFilter): f is TaskFilter & { q: string } {
  return Boolean(f.q) && Object.entries(f).every(([key, value]) => value === undefined || key === "run" || NOT_NARROWING.has(key));
}

/** Whether `q` has a phrase its word pairs did not narrow (phraseScope): its positions are read
 * from each candidate's vector. */
function unnarrowedPhrase(q: string, scope: PhraseScope): boolean {
  return scope === null && needsPositions(searchTerms(q));
}

/**
 * Whether a count is read in task_search alone (one row per task, with its run; migration 0021):
 * the GIN index's rows, no join with tasks, where a join first hashed every match of a common
 * word. So is a search and nothing else, over every task or within a run — but for a phrase of
 * common words (`plan` "walk", searchPlans), counted along the tasks instead, a vector each until
 * the cap: through the index, every match of each of its words was intersected first.
 */
function countedInSearchTable(f: TaskFilter, plan: SearchPlan, scope: PhraseScope): f is TaskFilter & { q: string } {
  return searchOnly(f) && !(plan === "walk" && unnarrowedPhrase(f.q, scope));
}

/**
 * How many tasks match `f`, counting at most `upTo` (in task_search alone when it can:
 * countedInSearchTable). `plan`: how a text search is matched (searchPlans for `upTo`); `scope`:
 * as in taskFilterWhere.
 */
export async function countMatches(q: Db, f: TaskFilter, upTo: number, plan: SearchPlan, scope: PhraseScope = null): Promise<number> {
  const inRun = f.run ? sql` AND s.run_id = ${runNamed(f.run)}` : sql``;
  const from = countedInSearchTable(f, plan, scope)
    ? sql`SELECT 1 FROM ${taskSearch} s WHERE ${searchRowMatch(f.q, true, scope)}${inRun}`
    : sql`SELECT 1 FROM ${tasks} WHERE ${taskFilterWhere(f, plan, scope) ?? sql`true`}`;
  const [row] = await execRows<{ n: number }>(q, sql`SELECT count(*)::int AS n FROM (${from} LIMIT ${upTo}) AS capped`);
  return Number(row?.n ?? 0);
}

/** `caps` (tests): where counting stops and the total becomes a lower bound. */
export async function listTasks(db: Db, f: TaskFilter, caps: CountCaps = COUNT_CAPS): Promise<TaskListResult> {
  const offset = decodeCursor(f.cursor);
  const limit = f.limit ?? 50;
  const run = async (q: Db) => {
    const cap = countCap(f, caps);
    // A page ends at its last row (pageRows); a count at its cap.
    const scope = f.q ? await phraseScope(q, f.q) : null;
    // The count's plan matters only where a walk would take it out of task_search.
    const [pagePlan = "set", countPlan = "set"] = f.q
      ? await searchPlans(q, f.q, [offset + limit + 1, countedInSearchTable(f, "walk", scope) ? Infinity : cap + 1], scope)
      : [];
    const rows = await pageRows(q, taskFilterWhere(f, pagePlan, scope), f, offset, limit);
    // A page that ends the list gives the total; otherwise count, but stop at the cap.
    let total = totalFromPage(offset, rows.length, limit);
    if (!total) total = totalFromCappedCount(await countMatches(q, f, cap + 1, countPlan, scope), cap, offset + rows.length);
    return { rows, total };
  };
  const { rows, total } = f.q
    ? await db.transaction(async (tx) => {
        const restore = await planTextSearch(tx as unknown as Db);
        const result = await run(tx as unknown as Db);
        await restore();
        return result;
      })
    : await run(db);
  return {
    items: rows.slice(0, limit).map(toRowJson),
    next: rows.length > limit ? encodeCursor(offset + limit) : null,
    total: total.total,
    total_is_estimate: total.isEstimate,
    offset,
  };
}

const refColumns = { id: tasks.id, extId: tasks.extId, round: tasks.round, status: tasks.status, operator: tasks.operator };

function toRef(r: { id: number; extId: string; round: number | null; status: TaskRefJson["status"]; operator: string | null }): TaskRefJson {
  return { id: r.id, task_id: r.extId, round: r.round, status: r.status, operator: r.operator };
}

export async function getTask(db: Db, id: number): Promise<TaskDetailJson | null> {
  const [t] = await db
    .select({ task: tasks, run: runs.name })
    .from(tasks)
    .innerJoin(runs, eq(runs.id, tasks.runId))
    .where(eq(tasks.id, id));
  if (!t) return null;
  const task = t.task;
  const [parent] = task.parentId === null ? [] : await db.select(refColumns).from(tasks).where(eq(tasks.id, task.parentId));
  const children = await db.select(refColumns).from(tasks).where(eq(tasks.parentId, id)).orderBy(asc(tasks.extId));
  const files = await db
    .select({ path: taskFiles.path, size: taskFiles.size, hash: taskFiles.blobHash })
    .from(taskFiles)
    .where(eq(taskFiles.taskId, id))
    .orderBy(asc(taskFiles.path));
  const evalRows = await db.select().from(evals).where(eq(evals.taskId, id)).orderBy(asc(evals.model));
  const [trialCount] = await db.select({ n: sql<number>`count(*)::int` }).from(trials).where(eq(trials.taskId, id));
  const [lastReview] = await listReviews(db, id, 1);
  const row: RowSelect = {
    id: task.id,
    extId: task.extId,
    run: t.run,
    parentId: task.parentId,
    round: task.round,
    status: task.status,
    rejectionReason: task.rejectionReason,
    operator: task.operator,
    category: task.category,
    review: task.reviewState,
    solutionLines: task.solutionLines,
    commands: task.commands,
    distinctTools: task.distinctTools,
    instructionWords: task.instructionWords,
    verifierTests: task.verifierTests,
    passAtK: task.passAtK,
    meanReward: task.meanReward,
    openFlags: task.openFlags,
  };
  return {
    ...toRowJson(row),
    name: task.name,
    declared_difficulty: task.declaredDifficulty,
    repair_attempts: task.repairAttempts,
    created_at: task.createdAt === null ? null : new Date(task.createdAt).toISOString(),
    content_hash: task.contentHash,
    version: task.version,
    depth: task.depth,
    root_id: task.rootId,
    verifier_asserts: task.verifierAsserts,
    pass_at_1: task.passAt1,
    metadata: task.metadata,
    parent: parent ? toRef(parent) : null,
    lineage_inferred: task.lineageInferred ?? null,
    children: children.map(toRef),
    files,
    evals: evalRows.map((e) => ({
      model: e.model,
      k: e.k,
      n: e.n,
      successes: e.successes,
      mean_reward: e.meanReward,
      pass_at_k: passAtK(e.n, e.successes, e.k),
    })),
    trial_count: Number(trialCount?.n ?? 0),
    last_review: lastReview ?? null,
  };
}

export interface TaskFileContent {
  path: string;
  size: number;
  hash: string;
  encoding: "utf8" | "base64";
  content: string;
}

export async function getTaskFile(db: Db, id: number, path: string): Promise<TaskFileContent | null> {
  const [row] = await db
    .select({ path: taskFiles.path, size: taskFiles.size, hash: taskFiles.blobHash, encoding: blobs.encoding, content: blobs.content })
    .from(taskFiles)
    .innerJoin(blobs, eq(blobs.hash, taskFiles.blobHash))
    .where(and(eq(taskFiles.taskId, id), eq(taskFiles.path, path)));
  return row ?? null;
}

export async function getFacets(db: Db, runName?: string): Promise<FacetsJson> {
  const runFilter = runName ? sql`run_id = ${runNamed(runName)}` : sql`true`;
  const ops = await execRows<{ v: string }>(db, sql`SELECT DISTINCT operator AS v FROM tasks WHERE ${runFilter} AND operator IS NOT NULL ORDER BY 1`);
  const cats = await execRows<{ v: string }>(db, sql`SELECT DISTINCT category AS v FROM tasks WHERE ${runFilter} AND category IS NOT NULL ORDER BY 1`);
  const [max] = await execRows<{ m: number | null }>(db, sql`SELECT max(round)::int AS m FROM tasks WHERE ${runFilter}`);
  return { operators: ops.map((r) => r.v), categories: cats.map((r) => r.v), max_round: Number(max?.m ?? 0) };
}

/** Ids of tasks by their pipeline ids within a run (tests and CLI lookups). */
export async function findTaskIds(db: Db, runName: string, extIds: string[]): Promise<Map<string, number>> {
  if (extIds.length === 0) return new Map();
  const rows = await db
    .select({ id: tasks.id, extId: tasks.extId })
    .from(tasks)
    .innerJoin(runs, eq(runs.id, tasks.runId))
    .where(and(eq(runs.name, runName), inArray(tasks.extId, extIds)));
  return new Map(rows.map((r) => [r.extId, r.id]));
}
