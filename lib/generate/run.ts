// The generator's main loop: seeds, then round after round of candidates derived from the
// previous round's accepted tasks, each written to disk as soon as it exists.
import fs from "node:fs";
import path from "node:path";
import { buildCandidate, type Candidate } from "./candidate";
import { isoAt, runEpoch } from "./clock";
import { DEFECT_RATE, DefectDealer, type Rule } from "./defects";
import { K, Solver, SOLVER_MODEL } from "./evals";
import { OPERATORS } from "./operators";
import { planRun, type Reason, type RunPlan } from "./plan";
import { Rng, WeightedPicker } from "./prng";
import { renderTestSh } from "./render";
import { buildSeed } from "./seeds";
import { writeTask } from "./task-writer";
import { writeTrial } from "./trial-files";
import { planTrials, type Scenario } from "./trial-plan";
import type { TaskContent } from "./types";
import { commitOutput, JsonlWriter, prepareOutput, TreeWriter } from "./writer";

export interface GenerateOptions {
  out: string;
  /** Accepted tasks over all rounds, seeds included; rejected candidates come on top. */
  tasks: number;
  rounds?: number;
  seed?: number;
  name?: string;
  onProgress?: (done: number, total: number) => void;
}

export interface GenerateSummary {
  name: string;
  out: string;
  accepted: number;
  rejected: number;
  seeds: number;
  trials: number;
  files: number;
  bytes: number;
  defects: number;
}

interface PoolEntry {
  id: string;
  content: TaskContent;
}

interface Emit {
  id: string;
  parentId: string | null;
  round: number;
  operator: string | null;
  accepted: boolean;
  reason: Reason | null;
  createdMs: number;
  candidate: Omit<Candidate, "operator">;
  rule: Rule | null;
}

interface Recent {
  parentId: string;
  candidate: Candidate;
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

export async function generateRun(opts: GenerateOptions): Promise<GenerateSummary> {
  const seed = opts.seed ?? 1;
  const name = opts.name ?? `demo-s${seed}-n${opts.tasks}`;
  const rng = new Rng(seed, "run");
  const plan = planRun(opts.tasks, opts.rounds ?? 15, rng.fork("plan"));
  const staging = prepareOutput(opts.out);
  const w = new TreeWriter(staging);
  try {
    return await writeRun(opts, { seed, name, rng, plan, staging, w });
  } catch (err) {
    // A failed run leaves nothing behind: no half-written .partial directory.
    await w.close().catch(() => undefined);
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

interface RunSetup {
  seed: number;
  name: string;
  rng: Rng;
  plan: RunPlan;
  staging: string;
  w: TreeWriter;
}

async function writeRun(opts: GenerateOptions, { seed, name, rng, plan, staging, w }: RunSetup): Promise<GenerateSummary> {
  w.dir("tasks");
  w.dir("trials");
  const lineage = new JsonlWriter(w, path.join(staging, "lineage.jsonl"));
  const evals = new JsonlWriter(w, path.join(staging, "evals.jsonl"));
  const truth = new JsonlWriter(w, path.join(staging, "truth.jsonl"));
  const solver = new Solver(plan.rounds.length);
  const dealer = new DefectDealer(rng.fork("defects"));
  const epoch = runEpoch(seed);
  const jobId = rng.uuid();
  const counts = { accepted: 0, rejected: 0, trials: 0, defects: 0, done: 0 };
  let clock = epoch;

  const emit = (e: Emit): void => {
    const c = e.candidate;
    const written = writeTask(w, e.id, c.content);
    lineage.write({
      task_id: e.id,
      parent_id: e.parentId,
      round: e.round,
      operator: e.operator,
      status: e.accepted ? "accepted" : "rejected",
      rejection_reason: e.reason,
      repair_attempts: c.repairAttempts,
      created_at: isoAt(e.createdMs),
    });
    const trng = new Rng(seed, `trials:${e.id}`);
    const specs = planTrials(trng, { content: c.content, layout: written.layout, early: c.early, brokenPackage: c.brokenPackage }, c.scenario);
    if (specs.length > 0) {
      const taskTrials = w.dir(path.join("trials", e.id));
      let oracleEnd = e.createdMs;
      for (const spec of specs) {
        const startMs = spec.check === "repeat" ? oracleEnd + trng.int(5_000, 900_000) : e.createdMs + trng.int(20_000, 600_000);
        const id = { taskId: e.id, trialName: `${e.id}__${trng.alnum(7)}`, checksum: written.checksum, runName: name, jobId, startMs };
        const end = writeTrial(w, taskTrials, trng, id, c.content, spec, c.broken);
        if (spec.check === "oracle" || spec.check === "repeat") oracleEnd = Math.max(oracleEnd, end);
        counts.trials++;
      }
    }
    if (e.accepted) {
      counts.accepted++;
      evals.write({ task_id: e.id, ...solver.evaluate(new Rng(seed, `eval:${e.id}`), e.round) });
    } else counts.rejected++;
    if (e.rule) {
      counts.defects++;
      truth.write({ task_id: e.id, rule: e.rule });
    }
    counts.done++;
    if (counts.done % 64 === 0 || counts.done === plan.candidates) opts.onProgress?.(counts.done, plan.candidates);
  };

  let pool: PoolEntry[] = [];
  for (let i = 0; i < plan.seeds; i++) {
    const id = `seed-${pad(i + 1, 4)}`;
    const s = buildSeed(new Rng(seed, `seed:${i}`), i, id, renderTestSh);
    clock += rng.int(20_000, 90_000);
    const scenario: Scenario = { kind: "valid", repeats: rng.chance(0.1) ? 1 : 0, skipParent: true };
    emit({ id, parentId: null, round: 0, operator: null, accepted: true, reason: null, createdMs: clock, candidate: { content: s.content, broken: null, early: false, brokenPackage: null, scenario, repairAttempts: 0 }, rule: null });
    pool.push({ id, content: s.content });
    await w.pace();
  }

  for (const rp of plan.rounds) {
    await new Promise((resolve) => setImmediate(resolve));
    clock += rng.int(3_600_000, 10_800_000);
    // Families, not tasks, compete for parent slots: a family's share follows its seed's
    // productivity, and small families can die out by chance.
    const familySize = new Map<string, number>();
    for (const p of pool) familySize.set(p.content.family.seedId, (familySize.get(p.content.family.seedId) ?? 0) + 1);
    const picker = new WeightedPicker(pool.map((p) => p.content.family.productivity / (familySize.get(p.content.family.seedId) ?? 1)));
    const next: PoolEntry[] = [];
    let acceptedLeft = rp.accepted;
    // The previous candidate of this round, which a duplicate copies.
    const memo: { recent: Recent | null } = { recent: null };
    for (let j = 0; j < rp.slots.length; j++) {
      const slot = rp.slots[j];
      if (!slot) continue;
      const crng = new Rng(seed, `cand:${rp.round}:${j}`);
      const id = `r${pad(rp.round, 2)}-${pad(j + 1, 5)}-${crng.hex(4)}`;
      clock += crng.int(2_000, 12_000);
      // Keep at least one healthy parent per round: defective tasks never become parents.
      const wantsDefect = slot.accepted && crng.chance(DEFECT_RATE) && (next.length > 0 || acceptedLeft > 1);
      let rule: Rule | null = wantsDefect ? dealer.next() : null;
      const parent = pool[picker.pick(crng)];
      if (!parent) throw new Error(`round ${rp.round} has no parents`);
      let parentId = parent.id;
      let candidate: Candidate | null;
      const previous = memo.recent;
      if (slot.reason === "duplicate" && previous) {
        parentId = previous.parentId;
        candidate = { ...previous.candidate, scenario: { kind: "none" }, repairAttempts: 0 };
      } else {
        candidate = buildCandidate(crng, parent.content, slot.accepted, slot.reason, rule);
        if (!candidate && rule) {
          dealer.undo(rule);
          rule = null;
          candidate = buildCandidate(crng, parent.content, slot.accepted, slot.reason, null);
        }
      }
      if (!candidate) throw new Error(`could not build candidate ${id}`);
      emit({ id, parentId, round: rp.round, operator: candidate.operator, accepted: slot.accepted, reason: slot.reason, createdMs: clock, candidate, rule });
      await w.pace();
      if (slot.accepted) {
        acceptedLeft--;
        if (!rule) next.push({ id, content: candidate.content });
      }
      memo.recent = { parentId, candidate };
    }
    pool = next;
    if (pool.length === 0) break;
  }

  lineage.close();
  evals.close();
  truth.close();
  const runJson = {
    name,
    created_at: isoAt(epoch),
    seeds: plan.seeds,
    rounds: plan.rounds.length,
    solver: { model: SOLVER_MODEL, k: K },
    candidates: plan.candidates,
    accepted: counts.accepted,
    rejected: counts.rejected,
    generator: { name: "rst-curator demo generator", seed, tasks: opts.tasks, operators: OPERATORS.map((o) => o.id) },
  };
  w.file(path.join(staging, "run.json"), JSON.stringify(runJson, null, 2) + "\n");
  await w.close();
  commitOutput(staging, opts.out);
  return { name, out: opts.out, accepted: counts.accepted, rejected: counts.rejected, seeds: plan.seeds, trials: counts.trials, files: w.files, bytes: w.bytes, defects: counts.defects };
}
