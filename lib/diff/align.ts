// Line alignment: which lines of the old and new text are kept, deleted and added. Browser-safe.
//
// jsdiff's Myers implementation costs O((N+M)·D); two 100k-line files with 1% of lines changed take
// about half a second with it alone. So, as `git diff --patience` does, we first cut the problem
// at anchors — lines that occur exactly once in each side, kept in order (longest increasing
// subsequence) — after trimming the common prefix and suffix, and run Myers (`diffArrays`) only on
// the small regions between anchors. A large region without anchors gets Myers with an edit budget
// (`maxEditLength`); beyond it the region becomes "delete all, add all": coarser, never wrong.

import { diffArrays } from "diff";

/** 0 = equal, 1 = deleted (old only), 2 = added (new only) */
export type EditOp = 0 | 1 | 2;

export interface EditScript {
  ops: EditOp[];
  counts: number[];
  /** some region fell back to delete-all/add-all */
  coarse: boolean;
}

/** Regions up to this many lines (old + new) go straight to Myers; larger ones are cut at anchors. */
const DIRECT_LIMIT = 2_000;
/** Anchor recursion depth; below it, Myers with the budget. */
const MAX_DEPTH = 12;
export const DEFAULT_MAX_EDIT_LENGTH = 2_000;

class Builder {
  ops: EditOp[] = [];
  counts: number[] = [];
  coarse = false;
  push(op: EditOp, count: number): void {
    if (count <= 0) return;
    const last = this.ops.length - 1;
    if (last >= 0 && this.ops[last] === op) this.counts[last]! += count;
    else {
      this.ops.push(op);
      this.counts.push(count);
    }
  }
}

/** Unique-in-both lines of a[aLo,aHi) and b[bLo,bHi), as [aIndex, bIndex] pairs kept in order
 * on both sides (patience: longest increasing subsequence of b positions in a order). */
function anchors(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number): [number, number][] {
  // count in a: 1 = once, 2 = more; then position in b for those seen once in a
  const inA = new Map<number, number>();
  for (let i = aLo; i < aHi; i++) {
    const id = a[i]!;
    const seen = inA.get(id);
    inA.set(id, seen === undefined ? i : -1);
  }
  const inB = new Map<number, number>();
  for (let j = bLo; j < bHi; j++) {
    const id = b[j]!;
    const ai = inA.get(id);
    if (ai === undefined || ai < 0) continue;
    const seen = inB.get(id);
    inB.set(id, seen === undefined ? j : -1);
  }
  const pairs: [number, number][] = [];
  for (let i = aLo; i < aHi; i++) {
    const j = inB.get(a[i]!);
    if (j !== undefined && j >= 0 && inA.get(a[i]!) === i) pairs.push([i, j]);
  }
  if (pairs.length === 0) return pairs;
  // LIS on j (pairs are in increasing i), O(k log k) with back-pointers.
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    const j = pairs[p]![1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[p] = tails[lo - 1]!;
    tails[lo] = p;
  }
  const out: [number, number][] = [];
  for (let p = tails[tails.length - 1]!; p >= 0; p = prev[p]!) out.push(pairs[p]!);
  return out.reverse();
}

function sharesAny(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number): boolean {
  const inA = new Set<number>();
  for (let i = aLo; i < aHi; i++) inA.add(a[i]!);
  for (let j = bLo; j < bHi; j++) if (inA.has(b[j]!)) return true;
  return false;
}

function myers(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, budget: number, out: Builder): void {
  const changes = diffArrays(Array.from(a.subarray(aLo, aHi)), Array.from(b.subarray(bLo, bHi)), { maxEditLength: budget });
  if (changes === undefined) {
    out.coarse = true;
    out.push(1, aHi - aLo);
    out.push(2, bHi - bLo);
    return;
  }
  for (const change of changes) out.push(change.added ? 2 : change.removed ? 1 : 0, change.count);
}

function align(a: Int32Array, aLo: number, aHi: number, b: Int32Array, bLo: number, bHi: number, budget: number, depth: number, out: Builder): void {
  let prefix = 0;
  while (aLo + prefix < aHi && bLo + prefix < bHi && a[aLo + prefix] === b[bLo + prefix]) prefix++;
  aLo += prefix;
  bLo += prefix;
  let suffix = 0;
  while (aHi - suffix > aLo && bHi - suffix > bLo && a[aHi - suffix - 1] === b[bHi - suffix - 1]) suffix++;
  aHi -= suffix;
  bHi -= suffix;
  out.push(0, prefix);
  if (aLo === aHi || bLo === bHi) {
    out.push(1, aHi - aLo);
    out.push(2, bHi - bLo);
  } else if (aHi - aLo + (bHi - bLo) <= DIRECT_LIMIT || depth >= MAX_DEPTH) {
    myers(a, aLo, aHi, b, bLo, bHi, budget, out);
  } else {
    const cuts = anchors(a, aLo, aHi, b, bLo, bHi);
    if (cuts.length === 0 && !sharesAny(a, aLo, aHi, b, bLo, bHi)) {
      // Nothing in common: delete-all/add-all is the exact minimal diff, no search needed.
      out.push(1, aHi - aLo);
      out.push(2, bHi - bLo);
    } else if (cuts.length === 0) {
      myers(a, aLo, aHi, b, bLo, bHi, budget, out);
    } else {
      let i = aLo;
      let j = bLo;
      for (const [ai, bj] of cuts) {
        align(a, i, ai, b, j, bj, budget, depth + 1, out);
        out.push(0, 1);
        i = ai + 1;
        j = bj + 1;
      }
      align(a, i, aHi, b, j, bHi, budget, depth + 1, out);
    }
  }
  out.push(0, suffix);
}

/**
 * Align two token sequences (interned as integers). Within each maximal changed region deletions
 * come before additions.
 */
export function alignSequences(a: Int32Array, b: Int32Array, maxEditLength = DEFAULT_MAX_EDIT_LENGTH): EditScript {
  const raw = new Builder();
  align(a, 0, a.length, b, 0, b.length, Math.max(1, maxEditLength), 0, raw);
  // Normalize: runs between two equal runs become one deletion then one addition.
  const out = new Builder();
  out.coarse = raw.coarse;
  let del = 0;
  let add = 0;
  for (let k = 0; k < raw.ops.length; k++) {
    const op = raw.ops[k]!;
    const count = raw.counts[k]!;
    if (op === 1) del += count;
    else if (op === 2) add += count;
    else {
      out.push(1, del);
      out.push(2, add);
      del = add = 0;
      out.push(0, count);
    }
  }
  out.push(1, del);
  out.push(2, add);
  return { ops: out.ops, counts: out.counts, coarse: out.coarse };
}
