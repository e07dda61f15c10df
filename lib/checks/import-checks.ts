// Server only: the consistency checks of a run imported for the first time from its directory,
// evaluated while it is imported, from what the reader threads hand over (each task's files, the
// readings of its verifier and solution, its trials) instead of read back from the database after
// the commit. A child comes after its parent in lineage.jsonl, so its parent is at hand here. The
// findings are written in the import's own transaction. They are the findings of a whole-run check
// run after the import (./index.ts): the same rules, on the same inputs (./inputs.ts).
//
// Whenever that cannot be guaranteed (a child whose parent is not kept here, an error), the import
// leaves the run to the whole-run check after its commit, as before (lib/ingest/index.ts).
import { underSavepoint, type Db } from "@/db/client";
import { trialIdsOf, writeFindings } from "@/db/queries/checks";
import type { TaskInput, TrialInput } from "@/db/queries/ingest-rows";
import type { CheckKind } from "@/lib/domain";
import type { Finding } from "@/lib/flags/types";
import { evaluate } from "./evaluate";
import { recordCheck, type CheckSummary } from "./index";
import { checkedPath, checkedText, leftChars, TEST_MESSAGE_CHARS, TRIAL_MESSAGE_CHARS, unexpectedVerdict } from "./inputs";
import { Readings } from "./readings";
import { RULE_MODULES } from "./rules";
import type { AnalysedTask, CheckFile, CheckTask, CheckTrial } from "./types";
import { analyseTask } from "./verifier";

/**
 * Accepted tasks kept as parents: those of the latest round read and the one before (a child is a
 * round after its parent: ≈ 5,000 tasks at paper scale), and never more than this many.
 */
const MAX_KEPT = 12_000;

/** A finding whose ids are this object's own until the import's rows have theirs. */
interface Pending {
  taskExtId: string;
  finding: Finding;
  /** the trial its evidence cites (its directory name), when it cites one */
  trialExtId: string | null;
  /** the task its evidence compares with, when it names one */
  compareExtId: string | null;
}

interface Kept {
  round: number | null;
  /** as the rules see a parent: no environment files, no solution reading */
  asParent: AnalysedTask;
}

export class ImportChecks {
  readonly rules = RULE_MODULES.map((r) => r.id);
  private kept = new Map<string, Kept>();
  private pending: Pending[] = [];
  private evaluated: { extId: string; contentHash: string }[] = [];
  private nextId = 1;
  private latestRound: number | null = null;
  private sawOracle = false;
  /** false once a task could not be checked here: the run is then checked after the commit */
  private usable = true;

  get complete(): boolean {
    return this.usable;
  }

  /** A candidate as the import writes it: its task (any status) and its trials. */
  async add(task: TaskInput, trials: readonly TrialInput[]): Promise<void> {
    for (const t of trials) if (t.row.check === "oracle") this.sawOracle = true;
    if (!this.usable || task.row.status !== "accepted") return;
    try {
      await this.check(task, trials);
    } catch {
      this.giveUp();
    }
  }

  private giveUp(): void {
    this.usable = false;
    this.kept = new Map();
    this.pending = [];
    this.evaluated = [];
  }

  private async check(task: TaskInput, trials: readonly TrialInput[]): Promise<void> {
    const row = task.row;
    const parentExtId = row.parentExtId ?? null;
    const parent = parentExtId === null ? null : (this.kept.get(parentExtId)?.asParent ?? null);
    if (parentExtId !== null && parent === null) return this.giveUp();
    const files = new Map<string, CheckFile>();
    for (const f of task.files) {
      if (checkedPath(f.path, false)) files.set(f.path, { path: f.path, hash: f.stored.hash, text: checkedText(f.path, f.stored) ? f.stored.content : "" });
    }
    const own: CheckTask = { id: this.nextId++, extId: row.extId, status: row.status, contentHash: row.contentHash, parentId: parent?.id ?? null, files };
    // The readings the reader made of these very files: nothing is parsed here.
    const analysed = await analyseTask(own, { solution: parent !== null, readings: Readings.of(task.readings ?? []) });
    const given = trials.map(checkTrial);
    const ids = new Map<number, string>([[own.id, own.extId]]);
    if (parent) ids.set(parent.id, parent.extId);
    for (const finding of evaluate({ task: analysed, parent, trials: given, runHasValidation: true }, RULE_MODULES)) {
      const { trial_id: trial, compare_task_id: compare } = finding.evidence;
      const compareExtId = compare === undefined ? null : ids.get(compare);
      const trialExtId = trial === undefined ? null : given[trial]?.extId;
      if (compareExtId === undefined || trialExtId === undefined) return this.giveUp();
      this.pending.push({ taskExtId: own.extId, finding, trialExtId, compareExtId });
    }
    this.evaluated.push({ extId: own.extId, contentHash: own.contentHash });
    this.keep(row.round ?? null, { ...analysed, files: new Map([...files].filter(([path]) => checkedPath(path, true))), solution: null });
  }

  private keep(round: number | null, asParent: AnalysedTask): void {
    if (round !== null && (this.latestRound === null || round > this.latestRound)) {
      this.latestRound = round;
      for (const [extId, k] of this.kept) if (k.round !== null && k.round < round - 1) this.kept.delete(extId);
    }
    this.kept.set(asParent.extId, { round, asParent });
    if (this.kept.size > MAX_KEPT) {
      const oldest = this.kept.keys().next().value;
      if (oldest !== undefined) this.kept.delete(oldest);
    }
  }

  /**
   * Writes the findings in the import's transaction, with the ids its rows got, and the check's
   * audit row; null (nothing written) when the run is to be checked after the commit instead: a
   * task could not be checked here, or the writing failed (undone; the import goes on).
   */
  async write(tx: Db, run: { id: number; name: string }, taskIdOf: (extId: string) => number | undefined, actor?: { id: string | null; label: string }): Promise<CheckSummary | null> {
    this.kept = new Map();
    if (!this.usable) return null;
    try {
      return await underSavepoint(tx, "import_checks", () => this.writeFindings(tx, run, taskIdOf, actor));
    } catch {
      return null;
    } finally {
      this.pending = [];
      this.evaluated = [];
    }
  }

  private async writeFindings(tx: Db, run: { id: number; name: string }, taskIdOf: (extId: string) => number | undefined, actor?: { id: string | null; label: string }): Promise<CheckSummary> {
    const started = Date.now();
    const idOf = (extId: string): number => {
      const id = taskIdOf(extId);
      if (id === undefined) throw new Error(`task ${extId} was checked but not written`);
      return id;
    };
    const evaluated = this.evaluated.map((t) => ({ id: idOf(t.extId), contentHash: t.contentHash }));
    // Without any oracle trial in the run, missing-validation says nothing (as ./index.ts decides).
    const pending = this.sawOracle ? this.pending : this.pending.filter((p) => p.finding.rule !== "missing-validation");
    const citing = [...new Set(pending.filter((p) => p.trialExtId !== null).map((p) => idOf(p.taskExtId)))];
    const trialIds = await trialIdsOf(tx, citing);
    const findings = pending.map(({ taskExtId, finding, trialExtId, compareExtId }): Finding => {
      const taskId = idOf(taskExtId);
      const evidence = { ...finding.evidence };
      if (compareExtId !== null) evidence.compare_task_id = idOf(compareExtId);
      if (trialExtId !== null) {
        const trialId = trialIds.get(`${taskId}\u0000${trialExtId}`);
        if (trialId === undefined) throw new Error(`trial ${trialExtId} of task ${taskExtId} was checked but not written`);
        evidence.trial_id = trialId;
      }
      return { ...finding, taskId, evidence };
    });
    const w = await writeFindings(tx, evaluated, this.rules, findings);
    const counts: Record<string, number> = Object.fromEntries(this.rules.map((r) => [r, 0]));
    for (const f of findings) counts[f.rule] = (counts[f.rule] ?? 0) + 1;
    const summary: CheckSummary = { run: run.name, tasks: evaluated.length, counts, ...w, durationMs: Date.now() - started };
    await recordCheck(tx, summary, { scope: "full", rules: this.rules, actor });
    return summary;
  }
}

/** A trial as the rules are given it (db/queries/checks.ts loadTrials gives the same); its id is
 * its place among the task's trials until it has one. */
function checkTrial(t: TrialInput, index: number): CheckTrial {
  const check = t.row.check as CheckKind;
  const reward = t.row.reward ?? null;
  const detail = unexpectedVerdict({ check, reward });
  const message = t.row.exceptionMessage ?? null;
  return {
    id: index,
    extId: t.extId,
    check,
    reward,
    exceptionType: t.row.exceptionType ?? null,
    exceptionMessage: message === null ? null : leftChars(message, TRIAL_MESSAGE_CHARS),
    contentHash: t.row.contentHash ?? null,
    tests: detail
      ? t.tests.map((x) => ({ name: x.name, status: x.status, message: x.message === null ? null : leftChars(x.message, TEST_MESSAGE_CHARS), logName: x.logName, logLine: x.logLine }))
      : [],
    logs: detail ? t.logs.map((l) => l.name).sort() : [],
  };
}
