// npx tsx bench/infer.ts RUN_DIR [--all]
// Lineage inference (C12) against a native run's declared lineage: the tasks' solutions (and
// instruction and verifier, the context) are read from disk, the parents withheld, inferred, and
// compared with lineage.jsonl — the right answer for a task is its nearest ancestor in the set.
// Accepted tasks only by default (what a public release ships); --all takes rejected candidates
// too. Prints accuracy by confidence band, roots, depth = round, time and memory.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { depthsOf, inferLineage, type InferInput } from "@/lib/lineage/infer";

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { all: { type: "boolean", default: false } } });
const dir = positionals[0];
if (!dir) {
  process.stderr.write("usage: npx tsx bench/infer.ts RUN_DIR [--all]\n");
  process.exit(2);
}

interface Line {
  task_id: string;
  parent_id: string | null;
  round: number;
  status: string;
}
const lineage: Line[] = fs
  .readFileSync(path.join(dir, "lineage.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Line);
const parentOf = new Map(lineage.map((r) => [r.task_id, r.parent_id]));
const rows = lineage.filter((r) => args.all || r.status === "accepted");
const present = new Set(rows.map((r) => r.task_id));

const read = (task: string, rel: string): string | null => {
  try {
    return fs.readFileSync(path.join(dir, "tasks", task, rel), "utf8");
  } catch {
    return null;
  }
};
const readStart = performance.now();
const inputs: InferInput[] = rows.map((r) => {
  let tests: string[] = [];
  try {
    tests = fs.readdirSync(path.join(dir, "tasks", r.task_id, "tests")).filter((f) => f.endsWith(".py")).sort();
  } catch {
    // no tests/
  }
  const context = [read(r.task_id, "instruction.md") ?? "", ...tests.map((f) => read(r.task_id, `tests/${f}`) ?? "")].join("\n");
  return { id: r.task_id, solution: read(r.task_id, "solution/solve.sh"), context };
});
const readMs = performance.now() - readStart;

const started = performance.now();
const links = inferLineage(inputs);
const inferMs = performance.now() - started;
const depth = depthsOf(links);

const bands = [
  { name: "≥ 0.8", min: 0.8, right: 0, wrong: 0 },
  { name: "0.5–0.8", min: 0.5, right: 0, wrong: 0 },
  { name: "< 0.5", min: -1, right: 0, wrong: 0 },
];
let right = 0;
let wrong = 0;
let rootsRight = 0;
let rootsWrong = 0;
let missedParents = 0;
for (const l of links) {
  let want = parentOf.get(l.id) ?? null;
  while (want !== null && !present.has(want)) want = parentOf.get(want) ?? null;
  const ok = l.parent === want;
  if (want === null) {
    if (ok) rootsRight++;
    else rootsWrong++;
  } else if (ok) right++;
  else {
    wrong++;
    if (l.parent === null) missedParents++;
  }
  if (l.parent !== null) {
    const band = bands.find((b) => (l.evidence.confidence ?? 0) >= b.min);
    if (band) band[ok ? "right" : "wrong"]++;
  }
}
const roundOf = new Map(rows.map((r) => [r.task_id, r.round]));
const depthRight = [...depth].filter(([id, d]) => roundOf.get(id) === d).length;
const pct = (a: number, b: number) => (b === 0 ? "—" : `${((100 * a) / b).toFixed(1)} %`);

process.stdout.write(
  [
    `${dir}: ${links.length} tasks (${args.all ? "all candidates" : "accepted only"})`,
    `read ${(readMs / 1000).toFixed(1)} s; inferred in ${(inferMs / 1000).toFixed(1)} s; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
    `parent found: ${right} of ${right + wrong} (${pct(right, right + wrong)}); ${missedParents} left as roots`,
    `roots right: ${rootsRight} of ${rootsRight + rootsWrong}`,
    ...bands.map((b) => `  confidence ${b.name}: ${b.right + b.wrong} links, ${pct(b.right, b.right + b.wrong)} right`),
    `depth = declared round: ${depthRight} of ${links.length}`,
  ].join("\n") + "\n",
);
