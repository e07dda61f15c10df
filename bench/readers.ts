// npx tsx bench/readers.ts --run DIR [--share N] [--alloc] [--out bench/out]
// What a reader thread of an import costs, without a database: a native run's candidates read in
// lineage.jsonl order in this one thread, as a reader thread reads them (parents kept for their
// children), with `--share N` only the lineages of every Nth seed (an import with N reader threads
// gives each about that share). Prints CPU milliseconds per candidate by round, and how the scripts
// were parsed: how many parses went whole, from a shared start or around an insertion, and how
// many characters each grammar's parses took, in all and per candidate of each round. Compare two
// commits on the same machine, run after run, alternating: the same code varies by ±5 % from one
// run to the next. `--alloc` also samples what the reading allocates (V8's sampling heap profiler,
// objects collected since included: all the garbage the collector has to deal with) and prints the
// functions that allocate most, a built-in such as `split` named with the function calling it; it
// slows the reading, so its CPU figures are not comparable with a run without it.
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { formatIssue, IssueList } from "@/lib/ingest/errors";
import { readJsonl } from "@/lib/ingest/jsonl";
import { readCandidate } from "@/lib/ingest/native/read-candidate";
import { lineageSchema, type LineageRecord } from "@/lib/ingest/native/schemas";
import { parseCounts } from "@/lib/metrics/script-parse";
import { parsedChars } from "@/lib/metrics/tree-sitter";

const { values: args } = parseArgs({
  options: {
    run: { type: "string" },
    share: { type: "string", default: "1" },
    out: { type: "string", default: "bench/out" },
    alloc: { type: "boolean", default: false },
  },
});
if (!args.run) throw new Error("--run DIR: a run directory (npx rst-curator generate --out DIR)");
const dir = path.resolve(args.run);
const share = Number(args.share);
if (!Number.isInteger(share) || share < 1) throw new Error("--share takes a whole number of at least 1");

const issues = new IssueList();
const records: { line: number; rec: LineageRecord }[] = [];
for await (const { line, value } of readJsonl(path.join(dir, "lineage.jsonl"), "lineage.jsonl", lineageSchema, issues)) records.push({ line, rec: value });
if (issues.size > 0) throw new Error(issues.items.map(formatIssue).join("\n"));

// Each lineage goes with its seed (parents come before their children in lineage.jsonl).
const seedOf = new Map<string, string>();
for (const { rec } of records) seedOf.set(rec.task_id, rec.parent_id === null ? rec.task_id : (seedOf.get(rec.parent_id) ?? rec.parent_id));
const seeds = records.filter((r) => r.rec.parent_id === null).map((r) => r.rec.task_id);
const mine = new Set(seeds.filter((_, i) => i % share === 0));

/** A round's candidates, their CPU, and the characters their parses took by grammar. */
interface RoundCost {
  candidates: number;
  ms: number;
  bash: number;
  python: number;
}
/** A node of V8's sampling heap profile. */
interface SampledNode {
  callFrame: { functionName: string; url: string };
  selfSize: number;
  children: SampledNode[];
}

/** Bytes allocated by function (file and name); a built-in (no file) counts under its caller. */
function allocationsByFunction(head: SampledNode): { total: number; top: { fn: string; mb: number }[] } {
  const bytes = new Map<string, number>();
  let total = 0;
  const visit = (node: SampledNode, caller: string): void => {
    const { functionName, url } = node.callFrame;
    const own = `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}`.trim();
    const key = url ? own : `${own} (in ${caller})`;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) visit(child, url ? own : caller);
  };
  visit(head, "(root)");
  const top = [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([fn, b]) => ({ fn, mb: Math.round(b / 1e6) }));
  return { total, top };
}

const profiler = args.alloc ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post("HeapProfiler.enable");
  await profiler.post("HeapProfiler.startSampling", { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
}

const byRound = new Map<number, RoundCost>();
let candidates = 0;
let ms = 0;
for (const { line, rec } of records) {
  if (!mine.has(seedOf.get(rec.task_id) ?? "")) continue;
  const before = process.cpuUsage();
  const charsBefore = { ...parsedChars };
  await readCandidate({ dir, rec, line, evals: [], solverModel: null, knownHash: null, knownTrials: [], searchText: false, lineageDeclared: true });
  const used = process.cpuUsage(before);
  const spent = (used.user + used.system) / 1000;
  const round = byRound.get(rec.round) ?? { candidates: 0, ms: 0, bash: 0, python: 0 };
  round.candidates++;
  round.ms += spent;
  round.bash += parsedChars.bash - charsBefore.bash;
  round.python += parsedChars.python - charsBefore.python;
  byRound.set(rec.round, round);
  candidates++;
  ms += spent;
}

const rounds = [...byRound]
  .sort((a, b) => a[0] - b[0])
  .map(([round, r]) => ({
    round,
    candidates: r.candidates,
    msPerCandidate: +(r.ms / r.candidates).toFixed(2),
    // What a candidate of the round handed tree-sitter: it grows with the scripts when the parses
    // do not resume near the end (docs/benchmarks.md, session 32).
    charsPerCandidate: { bash: Math.round(r.bash / r.candidates), python: Math.round(r.python / r.candidates) },
  }));
for (const r of rounds) {
  const chars = `${String(r.charsPerCandidate.bash).padStart(6)} bash + ${String(r.charsPerCandidate.python).padStart(6)} Python characters parsed`;
  console.log(`round ${String(r.round).padStart(2)}: ${String(r.candidates).padStart(6)} candidates, ${r.msPerCandidate.toFixed(2)} ms CPU and ${chars} each`);
}
const allocation = profiler ? allocationsByFunction(((await profiler.post("HeapProfiler.stopSampling")) as { profile: { head: SampledNode } }).profile.head) : null;
if (allocation) {
  console.log(`allocated ${Math.round(allocation.total / 1e6)} MB, ${Math.round(allocation.total / candidates / 1e3)} kB per candidate; most by:`);
  for (const { fn, mb } of allocation.top) console.log(`${String(mb).padStart(7)} MB  ${fn}`);
}
const result = {
  run: dir,
  share,
  candidates,
  msPerCandidate: +(ms / candidates).toFixed(2),
  rounds,
  parses: { ...parseCounts },
  parsedChars: { ...parsedChars },
  allocatedMb: allocation ? Math.round(allocation.total / 1e6) : undefined,
  allocationTop: allocation?.top,
};
console.log(`${candidates} candidates, ${result.msPerCandidate} ms CPU each; parses ${JSON.stringify(result.parses)}; characters parsed ${JSON.stringify(result.parsedChars)}`);
fs.mkdirSync(args.out, { recursive: true });
const file = path.join(args.out, `readers-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${file}`);
