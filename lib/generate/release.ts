// A native run rewritten in the layout of the public RST release (FORMATS.md §5): its accepted
// tasks under opaque ids (`rts_task_<hex>`), in an order that hides rounds and families, in tar
// shards of `tasks/<id>/…` trees, with `metadata/tasks.parquet` and a shard manifest. What the
// release does not carry (parents, rounds) is written beside it in `lineage-truth.jsonl`, to
// measure lineage inference against; the importer never reads that file.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ParquetWriter, fileWriter, schemaFromColumnData } from "hyparquet-writer";
import tar from "tar-stream";
import { IssueList } from "@/lib/ingest/errors";
import { isReleaseDir } from "@/lib/ingest/release";
import { readTree } from "@/lib/ingest/walk";
import { generateRun, type GenerateOptions } from "./run";

export interface ReleaseOptions {
  /** tasks per tar shard (default 2,000) */
  tasksPerShard?: number;
  /** salt of the opaque ids */
  salt?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface ReleaseSummary {
  tasks: number;
  shards: number;
  bytes: number;
}

interface Member {
  taskId: string;
  parentId: string | null;
  round: number;
  opaque: string;
}

const COLUMNS = ["instruction", "task_toml", "solution", "dockerfile", "member_prefix", "shard"] as const;
/** A fixed time for every entry: the same run gives the same shards, byte for byte. */
const MTIME = new Date("2026-01-01T00:00:00Z");

export const opaqueId = (salt: string, taskId: string): string => `rts_task_${createHash("sha256").update(`${salt}\u0000${taskId}`).digest("hex").slice(0, 16)}`;

async function acceptedTasks(runDir: string, salt: string): Promise<Member[]> {
  const out: Member[] = [];
  const rl = readline.createInterface({ input: fs.createReadStream(path.join(runDir, "lineage.jsonl"), "utf8"), crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as { task_id: string; parent_id: string | null; round: number; status: string };
    if (r.status === "accepted") out.push({ taskId: r.task_id, parentId: r.parent_id, round: r.round, opaque: opaqueId(salt, r.task_id) });
  }
  // Ordered by the opaque id: neither rounds nor families stay together, as in the release.
  return out.sort((a, b) => (a.opaque < b.opaque ? -1 : 1));
}

/** Writes the release of `runDir`'s accepted tasks into `outDir` (created; must not exist). */
export async function writeRelease(runDir: string, outDir: string, opts: ReleaseOptions = {}): Promise<ReleaseSummary> {
  const perShard = opts.tasksPerShard ?? 2000;
  const salt = opts.salt ?? path.basename(runDir);
  const members = await acceptedTasks(runDir, salt);
  const opaqueOf = new Map(members.map((m) => [m.taskId, m.opaque]));
  fs.mkdirSync(path.join(outDir, "metadata"), { recursive: true });
  fs.mkdirSync(path.join(outDir, "data"), { recursive: true });
  fs.writeFileSync(
    path.join(outDir, "lineage-truth.jsonl"),
    members.map((m) => JSON.stringify({ id: m.opaque, task_id: m.taskId, parent_id: m.parentId === null ? null : (opaqueOf.get(m.parentId) ?? null), round: m.round })).join("\n") + "\n",
  );
  const schema = schemaFromColumnData({ columnData: COLUMNS.map((name) => ({ name, data: [] as string[], type: "STRING" as const, nullable: true })) });
  const parquet = new ParquetWriter({ writer: fileWriter(path.join(outDir, "metadata/tasks.parquet")), schema });
  const manifest: string[] = [];
  let bytes = 0;
  let done = 0;
  for (let s = 0; s * perShard < members.length; s++) {
    const shard = `tasks-${String(s).padStart(5, "0")}.tar`;
    const slice = members.slice(s * perShard, (s + 1) * perShard);
    const columns: Record<(typeof COLUMNS)[number], (string | null)[]> = { instruction: [], task_toml: [], solution: [], dockerfile: [], member_prefix: [], shard: [] };
    const hash = createHash("sha256");
    let size = 0;
    const pack = tar.pack();
    const written = pipeline(
      pack,
      new Transform({
        transform(chunk: Buffer, _enc, cb) {
          hash.update(chunk);
          size += chunk.length;
          cb(null, chunk);
        },
      }),
      fs.createWriteStream(path.join(outDir, "data", shard)),
    );
    for (const m of slice) {
      const issues = new IssueList();
      const files = readTree(path.join(runDir, "tasks", m.taskId), issues, `tasks/${m.taskId}`);
      if (issues.size > 0) throw new Error(issues.items.map((i) => `${i.file}: ${i.message}`).join("\n"));
      const prefix = `tasks/${m.opaque}/`;
      const text = (rel: string) => files.find((f) => f.rel === rel)?.bytes.toString("utf8") ?? null;
      columns.instruction.push(text("instruction.md"));
      columns.task_toml.push(text("task.toml"));
      columns.solution.push(text("solution/solve.sh"));
      columns.dockerfile.push(text("environment/Dockerfile"));
      columns.member_prefix.push(prefix);
      columns.shard.push(shard);
      for (const f of files) await entry(pack, { name: prefix + f.rel, size: f.bytes.length, mode: 0o644, mtime: MTIME }, f.bytes);
      opts.onProgress?.(++done, members.length);
    }
    pack.finalize();
    await written;
    bytes += size;
    manifest.push(JSON.stringify({ name: shard, size, sha256: hash.digest("hex"), tasks: slice.length }));
    await parquet.write({ columnData: COLUMNS.map((name) => ({ name, data: columns[name] })) });
  }
  parquet.finish();
  fs.writeFileSync(path.join(outDir, "metadata/shard_manifest.jsonl"), manifest.join("\n") + "\n");
  return { tasks: members.length, shards: manifest.length, bytes };
}

/** The output directory holds something else: nothing was written. */
export class OutputRefused extends Error {}

/**
 * `generate --layout release`: a run generated into a scratch directory beside `out`, rewritten
 * as a release in `out` (replaced when it holds an earlier release; anything else is refused).
 */
export async function generateRelease(opts: GenerateOptions & ReleaseOptions): Promise<ReleaseSummary & { name: string; out: string }> {
  const out = path.resolve(opts.out);
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
    if (!isReleaseDir(out)) throw new OutputRefused(`${out} exists and does not hold a release: not replaced`);
    fs.rmSync(out, { recursive: true, force: true });
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const scratch = fs.mkdtempSync(path.join(path.dirname(out), ".rst-generate-"));
  try {
    const run = await generateRun({ ...opts, out: path.join(scratch, "run") });
    const summary = await writeRelease(path.join(scratch, "run"), out, { ...opts, salt: opts.salt ?? run.name });
    return { ...summary, name: path.basename(out), out };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Adds one entry; resolves once the pack has taken it in (its sink waits while the shard's
 * file is behind, so a shard of hundreds of MB never sits in memory). */
function entry(pack: tar.Pack, header: Parameters<tar.Pack["entry"]>[0], body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry(header, body, (err) => (err ? reject(err) : resolve()));
  });
}
