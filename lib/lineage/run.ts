// Lineage inference for a whole run (C12): read every task's solution, infer the links, write them
// with their evidence, then check the run again (rules that compare a child with its parent can
// only speak once there are parents).
import type { Db } from "@/db/client";
import { inferenceTasks, writeInference, type InferenceWrite } from "@/db/queries/lineage-infer";
import { CLI_ACTOR } from "@/lib/auth/actor";
import { runChecks } from "@/lib/checks";
import { confidenceBand } from "@/lib/domain";
import { depthsOf, inferLineage } from "./infer";

export class InferenceRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InferenceRefused";
  }
}

export interface InferenceSummary {
  run: string;
  tasks: number;
  /** tasks given a parent */
  linked: number;
  roots: number;
  /** links by confidence: ≥ 0.8, 0.5–0.8, below 0.5 */
  confidence: { high: number; medium: number; low: number };
  /** tasks whose round was unknown and is now their depth */
  roundsFromDepth: number;
  written: boolean;
  checks?: Record<string, number>;
  durationMs: number;
}

/**
 * Infers the run's lineage. Refused for a run whose pipeline declared parent links (a native run,
 * or JSONL with parent ids): inference is for task sets that arrive without them. Inferring again
 * replaces the earlier inference. `dryRun` reports without writing.
 */
export async function inferRunLineage(
  db: Db,
  run: { id: number; name: string },
  opts: { dryRun?: boolean; actor?: { id: string | null; label: string } } = {},
): Promise<InferenceSummary> {
  const started = Date.now();
  const tasks = await inferenceTasks(db, run.id);
  const declared = tasks.filter((t) => t.declaredParent !== null).length;
  if (declared > 0) throw new InferenceRefused(`run ${run.name} declares its lineage (${declared} tasks have a parent from the pipeline); inference is for runs without one`);
  const links = inferLineage(tasks.map((t) => ({ id: t.extId, solution: t.solution, context: t.context })));
  const depth = depthsOf(links);
  const writes: InferenceWrite[] = links.map((l, i) => {
    const t = tasks[i] as (typeof tasks)[number];
    const fromDepth = t.round === null || t.inferred?.round_from_depth === true;
    return { id: t.id, parent: l.parent, evidence: { ...l.evidence, round_from_depth: fromDepth }, round: fromDepth ? (depth.get(l.id) ?? 0) : t.round };
  });
  const confidences = links.flatMap((l) => (l.parent === null ? [] : [l.evidence.confidence ?? 0]));
  const summary: InferenceSummary = {
    run: run.name,
    tasks: tasks.length,
    linked: confidences.length,
    roots: links.length - confidences.length,
    confidence: { high: 0, medium: 0, low: 0 },
    roundsFromDepth: writes.filter((w) => w.evidence.round_from_depth).length,
    written: false,
    durationMs: 0,
  };
  for (const c of confidences) summary.confidence[confidenceBand(c)]++;
  if (!opts.dryRun && tasks.length > 0) {
    const actor = opts.actor ?? { id: null, label: CLI_ACTOR.label };
    const { linked, roots, confidence } = summary;
    await writeInference(db, run.id, run.name, writes, { actorId: actor.id, actorLabel: actor.label, details: { tasks: tasks.length, linked, roots, confidence } });
    summary.written = true;
    summary.checks = (await runChecks(db, { runId: run.id, actor })).counts;
  }
  summary.durationMs = Date.now() - started;
  return summary;
}
