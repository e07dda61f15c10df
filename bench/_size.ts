import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { readCandidate } from "@/lib/ingest/native/read-candidate";
const dir = process.argv[2]!;
const lines = fs.readFileSync(path.join(dir, "lineage.jsonl"), "utf8").split("\n").filter(Boolean).slice(0, 3000);
const tot: Record<string, number> = {};
const add = (k: string, v: unknown) => { tot[k] = (tot[k] ?? 0) + v8.serialize(v).length; };
let n = 0;
for (const l of lines) {
  const rec = JSON.parse(l);
  const r = await readCandidate({ dir, rec, line: ++n, evals: [], solverModel: null, knownHash: null, knownTrials: [], searchText: false, lineageDeclared: true });
  add("all", r);
  if (r.task) { add("task.row", r.task.row); add("task.files", r.task.files); add("task.readings", r.task.readings); add("task.searchVector", r.task.searchVector); add("task.searchPairs", r.task.searchPairs); add("task.searchText", r.task.searchText); }
  add("trials", r.trials);
  for (const t of r.trials) { add("trials.logs", t.logs); add("trials.tests", t.tests); add("trials.row", t.row); }
}
for (const [k, v] of Object.entries(tot)) console.log(k.padEnd(20), (v / n / 1024).toFixed(1), "kB per candidate");
