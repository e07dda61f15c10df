// JSONL interchange (FORMATS.md §6) → one run, in one transaction: one task per line, its files
// inline. Our own export (lib/export/record.ts) writes this shape, and importing it gives back
// the same tasks: ids, lineage, status, every file's bytes, the solver's results.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { z } from "zod";
import type { RunWriter } from "@/db/queries/ingest";
import { storableString } from "./content";
import { IssueList } from "./errors";
import { zodMessage } from "./jsonl";
import type { CandidateJob } from "./native/read-candidate";
import { streamCandidates, type LineageSeen, type ReadProgress } from "./native/read-run";
import { taskIdSchema, type EvalRecord } from "./native/schemas";
import { MAX_FILE_BYTES } from "./walk";

/** A line holds a whole task, base64 and JSON escapes included. */
export const MAX_INTERCHANGE_LINE = 4 * MAX_FILE_BYTES;

const nullableText = (max: number) => z.string().max(max).nullish();
const timestamp = z
  .string()
  .max(100)
  .refine((s) => !Number.isNaN(Date.parse(s)), "must be a date and time (ISO 8601)")
  .nullish();

const solverSchema = z
  .looseObject({
    model: z.string().min(1).max(200),
    k: z.number().int().min(1).max(10_000),
    n: z.number().int().min(0).max(1_000_000),
    successes: z.number().int().min(0),
    mean_reward: z.number().min(0).max(1).nullish(),
  })
  .refine((e) => e.successes <= e.n, { message: "successes must not exceed n", path: ["successes"] });

const fileMap = z.record(z.string(), z.string());

/** One line. `metadata` is free-form; the keys read here are the ones our export writes. */
export const interchangeLineSchema = z.looseObject({
  id: taskIdSchema,
  round: z.number().int().min(0).max(10_000).nullish(),
  parent_id: taskIdSchema.nullish(),
  status: z.enum(["accepted", "rejected"]),
  metadata: z
    .looseObject({
      run: z.string().min(1).max(200).nullish(),
      operator: nullableText(200),
      rejection_reason: nullableText(200),
      repair_attempts: z.number().int().min(0).max(1000).nullish(),
      created_at: timestamp,
      solver: solverSchema.nullish(),
    })
    .nullish(),
  files: fileMap,
  files_base64: fileMap.nullish(),
  sha256: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, "must be a lower-case hex SHA-256")).nullish(),
});
export type InterchangeLine = z.infer<typeof interchangeLineSchema>;

export interface InterchangeHeader {
  name: string;
  meta: Record<string, unknown>;
  /** lines that are not blank */
  total: number;
  /** the name the lines give their run (metadata.run of the first), if any */
  linesRun: string | null;
}

/** JSON.parse that drops prototype keys but keeps every string as it is: a file's text must come
 * back byte for byte (its NULs included), so nothing is made "storable" before it is hashed. */
function parseLine(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === "__proto__" || key === "constructor" || key === "prototype" ? undefined : value));
}

/** Yields each non-blank line's number and text; an over-long line is an issue and skipped. */
async function* lines(file: string, display: string, issues: IssueList): AsyncGenerator<{ line: number; text: string }> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (text.trim() === "") continue;
    if (text.length > MAX_INTERCHANGE_LINE) issues.add(display, `line is longer than ${MAX_INTERCHANGE_LINE} characters`, line);
    else yield { line, text };
  }
}

function parsed(text: string, display: string, line: number, issues: IssueList): InterchangeLine | null {
  let raw: unknown;
  try {
    raw = parseLine(text);
  } catch (err) {
    issues.add(display, `invalid JSON: ${(err as Error).message}`, line);
    return null;
  }
  const r = interchangeLineSchema.safeParse(raw);
  if (!r.success) {
    issues.add(display, zodMessage(r.error), line);
    return null;
  }
  return r.data;
}

export function isInterchangeFile(p: string): boolean {
  return p.toLowerCase().endsWith(".jsonl");
}

/** The `.jsonl` file that is all a directory holds (an uploaded JSONL, or an archive of one). */
export async function loneInterchangeFile(dir: string): Promise<string | null> {
  try {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true });
    const [only] = entries;
    return entries.length === 1 && only?.isFile() && isInterchangeFile(only.name) ? path.join(dir, only.name) : null;
  } catch {
    return null;
  }
}

/**
 * The run a JSONL file goes into: `runName`, else the `metadata.run` its first line names, else
 * the file's name without `.jsonl`. Counts the lines (for the progress bar) without holding them.
 */
export async function readInterchangeHeader(file: string, issues: IssueList, runName?: string): Promise<InterchangeHeader | null> {
  const display = path.basename(file);
  const probe = new IssueList();
  let first: InterchangeLine | null = null;
  let total = 0;
  try {
    for await (const { line, text } of lines(file, display, probe)) {
      total++;
      if (total === 1) first = parsed(text, display, line, probe);
    }
  } catch (err) {
    issues.add(display, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return null;
  }
  if (total === 0) {
    issues.add(display, "holds no tasks (one JSON object per line)");
    return null;
  }
  const linesRun = first?.metadata?.run ?? null;
  const name = runName ?? linesRun ?? display.replace(/\.jsonl$/i, "");
  const solver = first?.metadata?.solver;
  return {
    name: storableString(name),
    meta: { name, format: "jsonl", source: display, ...(solver ? { solver: { model: solver.model, k: solver.k } } : {}) },
    total,
    linesRun,
  };
}

/**
 * Streams the lines into `writer`. Every problem names the file and line; after the first one,
 * lines are still read (to report them all) but nothing more is written. A parent that is
 * neither in the file nor in the run already is a warning: the task becomes a root of this run
 * (an export of rounds 5–15 names parents of round 4 it does not carry).
 */
export async function writeInterchangeRun(
  file: string,
  header: InterchangeHeader,
  writer: RunWriter,
  issues: IssueList,
  warnings: IssueList,
  opts: { onProgress?: (p: ReadProgress) => void; threads: number; runNamed: boolean },
): Promise<void> {
  const display = path.basename(file);
  const records = new Map<string, LineageSeen>();
  async function* jobs(): AsyncGenerator<CandidateJob> {
    for await (const { line, text } of lines(file, display, issues)) {
      const value = parsed(text, display, line, issues);
      if (!value) continue;
      const seen = records.get(value.id);
      if (seen) {
        issues.add(display, `task ${value.id} appears twice (first on line ${seen.line})`, line);
        continue;
      }
      const run = value.metadata?.run ?? null;
      if (!opts.runNamed && run !== header.linesRun) {
        issues.add(display, `metadata.run is ${JSON.stringify(run)}, but the first line's is ${JSON.stringify(header.linesRun)}: pass --run NAME to import them into one run`, line);
        continue;
      }
      const parentId = value.parent_id ?? null;
      records.set(value.id, { parent: parentId, line, round: value.round ?? null });
      const m = value.metadata ?? {};
      const solver = m.solver;
      const evals: EvalRecord[] = solver ? [{ task_id: value.id, model: storableString(solver.model), k: solver.k, n: solver.n, successes: solver.successes, mean_reward: solver.mean_reward ?? null }] : [];
      yield {
        dir: path.dirname(file),
        rec: {
          task_id: value.id,
          parent_id: parentId,
          round: value.round ?? null,
          status: value.status,
          operator: m.operator == null ? null : storableString(m.operator),
          rejection_reason: m.rejection_reason == null ? null : storableString(m.rejection_reason),
          repair_attempts: m.repair_attempts ?? 0,
          created_at: m.created_at ?? null,
        },
        line,
        inline: { file: display, line, display: `${display}:${line} ${value.id}`, text: value.files, base64: value.files_base64 ?? {}, sha256: value.sha256 ?? null },
        evals,
        solverModel: evals[0]?.model ?? null,
        knownHash: writer.knownHash(value.id),
        knownTrials: [],
        searchText: writer.needsSearchText,
        lineageDeclared: false,
      };
    }
  }
  await streamCandidates(jobs(), writer, issues, { ...opts, total: header.total, warnings });
  for (const taskId of inCycles(records)) issues.add(display, `task ${taskId}: its parent links lead back to itself`, records.get(taskId)?.line);
  for (const [taskId, r] of records) {
    if (r.parent === null) continue;
    const parent = records.get(r.parent);
    if (parent) {
      if (parent.round !== null && r.round !== null && parent.round >= r.round) issues.add(display, `task ${taskId}: round ${r.round} is not after its parent's round ${parent.round}`, r.line);
    } else if (writer.knownHash(r.parent) === null) {
      warnings.add(display, `task ${taskId}: its parent ${r.parent} is neither in this file nor in the run; imported as the root of its own tree`, r.line);
    }
  }
  if (issues.size === 0) await writer.finish();
}

/** Tasks whose chain of parents (within the file) comes back to them: no root, no place in a tree. */
function inCycles(records: Map<string, LineageSeen>): string[] {
  const state = new Map<string, "open" | "done">();
  const out: string[] = [];
  for (const start of records.keys()) {
    const chain: string[] = [];
    let id: string | null = start;
    while (id !== null && records.has(id) && state.get(id) !== "done") {
      if (state.get(id) === "open") {
        out.push(...chain.slice(chain.indexOf(id)));
        break;
      }
      state.set(id, "open");
      chain.push(id);
      id = records.get(id)?.parent ?? null;
    }
    for (const c of chain) state.set(c, "done");
  }
  return out;
}
