// The public RST release (FORMATS.md §5) → one run of roots: `metadata/tasks.parquet` (one row per
// task: where its tree is, and copies of its main files), `metadata/shard_manifest.jsonl` (each
// shard's name, size and SHA-256) and `data/tasks-*.tar` holding `tasks/<id>/…` Harbor task trees.
// The shards are streamed (release-tar.ts), never extracted; a shard that does not match its
// manifest fails the import. Ids are opaque and there is no lineage: tasks arrive as roots
// (round unknown), and the lineage is inferred afterwards (C12, `lineage infer`).
import fs from "node:fs";
import path from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { z } from "zod";
import type { RunWriter } from "@/db/queries/ingest";
import { storableString } from "./content";
import type { IssueList } from "./errors";
import { readJsonl } from "./jsonl";
import type { CandidateJob } from "./native/read-candidate";
import { streamCandidates, type ReadProgress } from "./native/read-run";
import { taskIdSchema } from "./native/schemas";
import { readShardTasks, splitMember, type ShardDigest } from "./release-tar";

export const RELEASE_PARQUET = "metadata/tasks.parquet";
export const RELEASE_MANIFEST = "metadata/shard_manifest.jsonl";
const SHARD_NAME = /^tasks-.*\.(tar|tar\.gz|tgz)$/;

/** A manifest line. Releases spell the keys differently; each is read under its usual names. */
const manifestLineSchema = z
  .looseObject({
    name: z.string().optional(),
    shard: z.string().optional(),
    file: z.string().optional(),
    path: z.string().optional(),
    size: z.number().int().min(0).optional(),
    bytes: z.number().int().min(0).optional(),
    size_bytes: z.number().int().min(0).optional(),
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, "must be a hex SHA-256").optional(),
  })
  .refine((l) => (l.name ?? l.shard ?? l.file ?? l.path) !== undefined, { message: "names no shard (name, shard, file or path)" });

export interface ShardRef {
  /** the shard's file name under data/ */
  name: string;
  /** its manifest line, size and digest, when the manifest lists it */
  listed: { line: number; size: number | null; sha256: string | null } | null;
}

export interface ReleaseHeader {
  name: string;
  meta: Record<string, unknown>;
  /** the shards present under data/, by name */
  shards: ShardRef[];
  /** task id → the shard the parquet puts it in, and its row (1-based); null without the parquet */
  expected: Map<string, { shard: string | null; row: number }> | null;
  /** tasks to read (the parquet's rows in the shards present), for the progress bar */
  total: number;
}

export function isReleaseDir(dir: string): boolean {
  if (fs.existsSync(path.join(dir, RELEASE_PARQUET))) return true;
  try {
    return fs.readdirSync(path.join(dir, "data")).some((n) => SHARD_NAME.test(n));
  } catch {
    return false;
  }
}

/** What the manifest lists, by shard file name. */
async function readManifest(dir: string, issues: IssueList): Promise<Map<string, { line: number; size: number | null; sha256: string | null }> | null> {
  const file = path.join(dir, RELEASE_MANIFEST);
  if (!fs.existsSync(file)) return null;
  const listed = new Map<string, { line: number; size: number | null; sha256: string | null }>();
  for await (const { line, value } of readJsonl(file, RELEASE_MANIFEST, manifestLineSchema, issues)) {
    const name = path.posix.basename(value.name ?? value.shard ?? value.file ?? value.path ?? "");
    if (listed.has(name)) issues.add(RELEASE_MANIFEST, `shard ${name} is listed twice (first on line ${listed.get(name)?.line})`, line);
    listed.set(name, { line, size: value.size ?? value.bytes ?? value.size_bytes ?? null, sha256: value.sha256?.toLowerCase() ?? null });
  }
  return listed;
}

/** The parquet's task ids (from `member_prefix`) and shards, by row. */
async function readParquetIndex(dir: string, issues: IssueList): Promise<Map<string, { shard: string | null; row: number }> | null> {
  const file = path.join(dir, RELEASE_PARQUET);
  if (!fs.existsSync(file)) return null;
  try {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const columns = new Set(parquetSchema(metadata).children.map((c) => c.element.name));
    if (!columns.has("member_prefix")) {
      issues.add(RELEASE_PARQUET, "has no member_prefix column (where each task's tree lies in the shards)");
      return null;
    }
    const wanted = ["member_prefix", ...(columns.has("shard") ? ["shard"] : [])];
    const rows = (await parquetReadObjects({ file: buffer, metadata, columns: wanted })) as { member_prefix?: unknown; shard?: unknown }[];
    const expected = new Map<string, { shard: string | null; row: number }>();
    rows.forEach((r, i) => {
      const row = i + 1;
      const member = typeof r.member_prefix === "string" ? splitMember(`${r.member_prefix.replace(/\/+$/, "")}/x`.split("/").filter((p) => p !== "" && p !== ".")) : null;
      const id = member ? taskIdSchema.safeParse(member.id) : null;
      if (!id?.success) return issues.add(RELEASE_PARQUET, `row ${row}: member_prefix ${JSON.stringify(r.member_prefix)} does not name a task directory (tasks/<id>/)`);
      if (expected.has(id.data)) return issues.add(RELEASE_PARQUET, `row ${row}: task ${id.data} is also on row ${expected.get(id.data)?.row}`);
      expected.set(id.data, { shard: typeof r.shard === "string" && r.shard !== "" ? path.posix.basename(r.shard) : null, row });
    });
    return expected;
  } catch (err) {
    issues.add(RELEASE_PARQUET, `cannot read the parquet file: ${(err as Error).message}`);
    return null;
  }
}

export async function readReleaseHeader(dir: string, issues: IssueList, warnings: IssueList, runName?: string): Promise<ReleaseHeader | null> {
  const manifest = await readManifest(dir, issues);
  const expected = await readParquetIndex(dir, issues);
  let present: string[] = [];
  try {
    present = fs
      .readdirSync(path.join(dir, "data"), { withFileTypes: true })
      .filter((e) => e.isFile() && SHARD_NAME.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    // no data/ at all: reported below
  }
  if (present.length === 0) issues.add("data/", "holds no shards (data/tasks-*.tar)");
  if (issues.size > 0) return null;
  const shards: ShardRef[] = present.map((name) => ({ name, listed: manifest?.get(name) ?? null }));
  if (manifest) {
    for (const [name, l] of manifest) {
      if (present.includes(name)) continue;
      const n = expected ? [...expected.values()].filter((e) => e.shard === name).length : null;
      warnings.add(RELEASE_MANIFEST, `shard ${name} is not in data/: ${n === null ? "its tasks are" : `its ${n} task${n === 1 ? " is" : "s are"}`} not imported`, l.line);
    }
    for (const s of shards) if (!s.listed) warnings.add(`data/${s.name}`, "not in the manifest: its checksum cannot be verified");
  }
  const inShards = new Set(present);
  const total = expected ? [...expected.values()].filter((e) => e.shard === null || inShards.has(e.shard)).length : 0;
  const name = storableString(runName ?? path.basename(dir));
  return { name, meta: { name, format: "release", shards: present.length, ...(expected ? { parquet_rows: expected.size } : {}) }, shards, expected, total };
}

/** Why a shard's digest does not match its manifest line, or null. */
function digestMismatch(ref: ShardRef, got: ShardDigest): string | null {
  const l = ref.listed;
  if (!l) return null;
  if (l.size !== null && l.size !== got.size) return `is ${got.size} bytes, the manifest says ${l.size} (line ${l.line}): a truncated or different file`;
  if (l.sha256 !== null && l.sha256 !== got.sha256) return `does not match its SHA-256 in the manifest (line ${l.line}): a corrupt or different file`;
  return null;
}

/**
 * Streams every shard's tasks into `writer` as roots (round unknown, accepted). The parquet and the
 * shards must agree: a task the parquet puts in a shard that does not hold it is an issue; a task
 * the parquet does not list is a warning.
 */
export async function writeReleaseRun(
  dir: string,
  header: ReleaseHeader,
  writer: RunWriter,
  issues: IssueList,
  warnings: IssueList,
  opts: { onProgress?: (p: ReadProgress) => void; threads: number },
): Promise<void> {
  const seen = new Map<string, string>();
  async function* jobs(): AsyncGenerator<CandidateJob> {
    for (const shard of header.shards) {
      const display = `data/${shard.name}`;
      const tasks = readShardTasks(path.join(dir, "data", shard.name), display, issues);
      let next = await tasks.next();
      for (; !next.done; next = await tasks.next()) {
        const { id, files } = next.value;
        const taskDisplay = `${display}:tasks/${id}`;
        const valid = taskIdSchema.safeParse(id);
        if (!valid.success) {
          issues.add(display, `tasks/${id}: the directory's name cannot be a task id (at most 200 characters, no control characters)`);
          continue;
        }
        if (seen.has(id)) {
          issues.add(display, `task ${id} is also in ${seen.get(id)}`);
          continue;
        }
        seen.set(id, display);
        const where = header.expected?.get(id);
        if (header.expected && !where) warnings.add(display, `tasks/${id} is not in ${RELEASE_PARQUET}`);
        else if (where?.shard && where.shard !== shard.name) issues.add(RELEASE_PARQUET, `row ${where.row}: puts task ${id} in ${where.shard}, but it is in ${shard.name}`);
        yield {
          dir,
          tree: { display: taskDisplay, files },
          rec: { task_id: id, parent_id: null, round: null, status: "accepted", operator: null, rejection_reason: null, repair_attempts: 0, created_at: null },
          line: 0,
          evals: [],
          solverModel: null,
          knownHash: writer.knownHash(id),
          knownTrials: [],
          searchText: writer.needsSearchText,
          lineageDeclared: false,
        };
      }
      const digest = next.value;
      const why = digest && digestMismatch(shard, digest);
      if (why) issues.add(display, why);
    }
  }
  await streamCandidates(jobs(), writer, issues, { ...opts, total: header.total, warnings });
  if (header.expected) {
    const read = new Set(header.shards.map((s) => s.name));
    for (const [id, where] of header.expected) {
      if (seen.has(id) || (where.shard !== null && !read.has(where.shard))) continue;
      issues.add(RELEASE_PARQUET, `row ${where.row}: task ${id} is in no shard${where.shard ? ` (the row says ${where.shard})` : ""}`);
    }
  }
  if (issues.size === 0) await writer.finish();
}
