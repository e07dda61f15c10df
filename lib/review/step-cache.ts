// The step a queue member shows (its summary and changed files) depends only on the contents of
// the two tasks, so it is kept by a key naming both file sets (every path with its blob hash):
// nothing to invalidate, a changed task has another key. Server only (the summary parses).
import { createHash } from "node:crypto";
import type { QueueTaskJson } from "@/lib/api/types";
import { Lru } from "@/lib/rounds/lru";

export type StepData = Pick<NonNullable<QueueTaskJson["diff"]>, "summary" | "changes">;

export interface FileRef {
  path: string;
  hash: string;
}

/** Both file sets, each in path order: the same contents always give the same key. */
export function stepKey(from: readonly FileRef[], to: readonly FileRef[]): string {
  const h = createHash("sha256");
  for (const side of [from, to]) {
    for (const f of [...side].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) h.update(`${f.path}\u0000${f.hash}\n`);
    h.update("\u0001");
  }
  return h.digest("hex");
}

/** A few KB each: the steps of several large queues. */
const steps = new Lru<string, StepData>(20_000);
const pending = new Map<string, Promise<StepData>>();

/** The step of `key`, computed once however many requests ask for it at the same time. */
export async function cachedStep(key: string, compute: () => Promise<StepData>): Promise<StepData> {
  const known = steps.get(key);
  if (known) return known;
  const running = pending.get(key);
  if (running) return running;
  const p = compute()
    .then((step) => {
      steps.set(key, step);
      return step;
    })
    .finally(() => pending.delete(key));
  pending.set(key, p);
  return p;
}

/** Forget every step (tests and benchmarks measure the uncached path with it). */
export function clearStepCache(): void {
  steps.clear();
}
