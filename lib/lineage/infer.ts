// Lineage inference (C12): for tasks that arrive without parent links, the parent of each is the
// task whose reference solution its own extends. A child of a recursive synthesis keeps its
// parent's solve.sh and adds a step (sometimes rewriting a few of the parent's lines on the way),
// so the parent is the shorter solution that survives most completely, in order, in the child's —
// and it beats the grandparent (which survives too, but is shorter) and the siblings (which are
// kept whole only up to their own new step). Pure: texts in, links and their evidence out.
import { diffArrays } from "diff";
import type { InferredLineage } from "@/lib/domain";

export interface InferInput {
  id: string;
  /** the reference solution's text; null when the task has none (it stays a root) */
  solution: string | null;
  /** what else a child extends of its parent (instruction, verifier): parts near ties only */
  context?: string | null;
}

export interface InferredLink {
  id: string;
  parent: string | null;
  evidence: Omit<InferredLineage, "round_from_depth">;
}

export interface InferOptions {
  /** a candidate must keep at least this share of its own lines in the child, in order */
  minKept?: number;
  /** and at least this many lines */
  minSharedLines?: number;
  /** candidates compared line by line per task, after a cheap ranking on uncommon lines */
  candidates?: number;
}

const DEFAULTS: Required<InferOptions> = { minKept: 0.6, minSharedLines: 3, candidates: 6 };

/** A solution's lines as the comparison sees them: trailing blanks trimmed, blank lines dropped. */
export function solutionLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    if (line.trim() !== "") out.push(line);
  }
  return out;
}

/** How well `parent` is kept in `child`: its lines found there in order, and what that scores
 * (a line of the parent the child lost counts against it, so a sibling — whose own new step the
 * child lacks — scores below the parent both share). */
function compare(parent: readonly number[], child: readonly number[]): { shared: number; score: number; head: boolean } {
  // The longest common subsequence: a common head and tail always belong to one, so only what
  // lies between them is diffed (for a sibling, its own step against the child's).
  let head = 0;
  while (head < parent.length && head < child.length && parent[head] === child[head]) head++;
  let p = parent.length;
  let c = child.length;
  while (p > head && c > head && parent[p - 1] === child[c - 1]) {
    p--;
    c--;
  }
  let shared = head + (parent.length - p);
  if (p > head && c > head) shared += lcsLength(parent.slice(head, p), child.slice(head, c));
  return { shared, score: shared - (parent.length - shared), head: head === parent.length };
}

/** Cells up to which the middle is compared by dynamic programming (two rows of integers); past
 * it, by a Myers diff, whose cost follows the edits rather than the product of the lengths. */
const DP_CELLS = 250_000;

/** How many items of `a` are found in `b` in order: the length of their longest common subsequence. */
export function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  if (a.length * b.length > DP_CELLS) {
    let n = 0;
    for (const part of diffArrays(a as T[], b as T[])) if (!part.added && !part.removed) n += part.count ?? part.value.length;
    return n;
  }
  let prev = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const x = a[i - 1];
    for (let j = 1; j <= b.length; j++) row[j] = x === b[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, row[j - 1] ?? 0);
    [prev, row] = [row, prev];
  }
  return prev[b.length] ?? 0;
}

/**
 * The parent of every task (or null: a root), with the evidence. Only a task with fewer solution
 * lines than the child can be its parent, so the links never form a cycle. Cost: one pass over
 * every task's uncommon lines to rank candidates, then a line comparison with the best few.
 */
export function inferLineage(inputs: readonly InferInput[], options: InferOptions = {}): InferredLink[] {
  const opts = { ...DEFAULTS, ...options };
  const intern = new Map<string, number>();
  const lineIds = (text: string) =>
    solutionLines(text).map((line) => {
      let id = intern.get(line);
      if (id === undefined) intern.set(line, (id = intern.size));
      return id;
    });
  const seqs = inputs.map((t) => (t.solution === null ? [] : lineIds(t.solution)));
  const contexts = new Map<number, number[]>();
  const contextOf = (task: number): number[] => {
    let seq = contexts.get(task);
    if (seq === undefined) contexts.set(task, (seq = lineIds(inputs[task]?.context ?? "")));
    return seq;
  };
  // Lines in many tasks (a shebang, `set -euo pipefail`) tell nothing about who descends from whom.
  const df = new Int32Array(intern.size);
  const distinct = seqs.map((s) => [...new Set(s)]);
  for (const d of distinct) for (const line of d) df[line] = (df[line] ?? 0) + 1;
  const common = Math.max(64, Math.ceil(inputs.length / 50));
  const postings = new Map<number, number[]>();
  const uncommon = distinct.map((d, task) => {
    const mine = d.filter((line) => (df[line] ?? 0) <= common);
    for (const line of mine) {
      const list = postings.get(line);
      if (list) list.push(task);
      else postings.set(line, [task]);
    }
    return mine.length;
  });
  // Shortest solutions first: a child's scan of a list stops at the first one as long as its own.
  const lengthOf = (task: number) => seqs[task]?.length ?? 0;
  for (const list of postings.values()) list.sort((a, b) => lengthOf(a) - lengthOf(b) || a - b);
  const shared = new Int32Array(inputs.length);

  // Every whole solution by a hash of its lines: a parent kept verbatim at the head of its child is
  // found through the child's prefixes even when all its lines are common (a big family's seed).
  const wholes = new Map<number, number[]>();
  seqs.forEach((s, task) => {
    if (s.length === 0) return;
    const key = prefixKeys(s, s.length - 1).at(-1) as number;
    const list = wholes.get(key);
    if (list) list.push(task);
    else wholes.set(key, [task]);
  });

  return inputs.map((t, c) => {
    const child = seqs[c] ?? [];
    const root: InferredLink = { id: t.id, parent: null, evidence: { confidence: null, shared_lines: 0, parent_lines: 0, child_lines: child.length, runner_up: null } };
    if (child.length === 0) return root;
    const heads = prefixKeys(child, child.length - 2)
      .flatMap((key) => wholes.get(key) ?? [])
      .filter((task) => task !== c)
      .slice(-PREFIX_CANDIDATES);
    // Rank by uncommon lines shared minus uncommon lines of the candidate's own the child lacks.
    const touched: number[] = [];
    for (const line of distinct[c] ?? []) {
      for (const other of postings.get(line) ?? []) {
        if (lengthOf(other) >= child.length) break;
        const n = (shared[other] ?? 0) + 1;
        shared[other] = n;
        if (n === 1) touched.push(other);
      }
    }
    const ranked = touched
      .map((task) => ({ task, rank: 2 * (shared[task] ?? 0) - (uncommon[task] ?? 0) }))
      .sort((a, b) => b.rank - a.rank || lengthOf(b.task) - lengthOf(a.task) || a.task - b.task)
      .slice(0, opts.candidates)
      .map((r) => r.task);
    for (const task of touched) shared[task] = 0;
    // What a candidate could keep at most (its lines found in the child, order aside) rules most
    // unrelated ones out before the costlier ordered comparison.
    const inChild = new Map<number, number>();
    for (const line of child) inChild.set(line, (inChild.get(line) ?? 0) + 1);
    const atMost = (seq: readonly number[]) => {
      const left = new Map(inChild);
      let n = 0;
      for (const line of seq) {
        const k = left.get(line) ?? 0;
        if (k > 0) {
          left.set(line, k - 1);
          n++;
        }
      }
      return n;
    };
    const passes = (shared: number, lines: number) => shared >= opts.minSharedLines && shared >= opts.minKept * lines;
    const scored = [...new Set([...ranked, ...heads])]
      .filter((task) => passes(atMost(seqs[task] ?? []), lengthOf(task)))
      .map((task) => ({ task, lines: lengthOf(task), ...compare(seqs[task] ?? [], child) }))
      .filter((s) => passes(s.shared, s.lines))
      .sort((a, b) => b.score - a.score || b.shared - a.shared || a.task - b.task);
    // Candidates within a few lines of each other (seeds written from one template, a parent and
    // its near-copy) are told apart by how much of their context — the instruction and verifier
    // a child extends too — the child keeps; that margin counts towards the gap.
    const near = scored.filter((s) => (scored[0]?.score ?? 0) - s.score < NEAR_TIE);
    const kept = new Map<number, number>();
    if (near.length > 1) {
      const mine = contextOf(c);
      for (const s of near) kept.set(s.task, compare(contextOf(s.task), mine).score);
      near.sort((a, b) => (kept.get(b.task) ?? 0) - (kept.get(a.task) ?? 0) || b.score - a.score || a.task - b.task);
      scored.splice(0, near.length, ...near);
    }
    // Kept whole either way, the one the child begins with is its parent: a candidate whose lines
    // come back only with the child's others between them is a sibling that made the same step.
    const whole = (x: (typeof scored)[number]) => x.shared === x.lines;
    const first = scored[0];
    const byOrder = first && whole(first) && !first.head ? scored.findIndex((x) => whole(x) && x.head) : -1;
    if (byOrder > 0) scored.unshift(...scored.splice(byOrder, 1));
    const [best, second] = scored;
    if (!best) return root;
    const contextGap = second && kept.has(second.task) ? (kept.get(best.task) ?? 0) - (kept.get(second.task) ?? 0) : 0;
    const gap = second ? Math.max(0, best.score - second.score + contextGap) : Number.POSITIVE_INFINITY;
    // A runner-up a line or two behind is a near tie; twenty lines behind (a whole step) is not.
    // Decided by order rather than by lines kept, a link is as sure as a near tie settled.
    const clear = byOrder > 0 ? 0.5 : gap === Number.POSITIVE_INFINITY ? 1 : gap / (gap + 4);
    return {
      id: t.id,
      parent: inputs[best.task]?.id ?? null,
      evidence: {
        confidence: Math.round((best.shared / best.lines) * clear * 100) / 100,
        shared_lines: best.shared,
        parent_lines: best.lines,
        child_lines: child.length,
        runner_up: second ? { id: inputs[second.task]?.id ?? "", shared_lines: second.shared } : null,
      },
    };
  });
}

/** The longest verbatim heads looked up per child (its parent's, its grandparent's, …). */
const PREFIX_CANDIDATES = 3;
/** Candidates whose solution scores are this close (in lines) are a near tie. */
const NEAR_TIE = 4;

/** A key for each prefix of `seq` of 1 … upTo+1 lines: 53 bits of two 32-bit polynomial hashes,
 * a number so that the map lookups make no strings (a collision only costs a comparison: every
 * candidate is compared line by line). */
function prefixKeys(seq: readonly number[], upTo: number): number[] {
  const keys: number[] = [];
  let a = 0;
  let b = 0;
  for (let i = 0; i <= upTo && i < seq.length; i++) {
    const v = (seq[i] ?? 0) + 1;
    a = (Math.imul(a, 0x01000193) + v) >>> 0;
    b = (Math.imul(b ^ v, 0x5bd1e995) + 0x9e3779b9) >>> 0;
    keys.push((a & 0x1fffff) * 0x100000000 + b);
  }
  return keys;
}

/** Depth of every task under the inferred links (0 for a root). */
export function depthsOf(links: readonly InferredLink[]): Map<string, number> {
  const parentOf = new Map(links.map((l) => [l.id, l.parent]));
  const depth = new Map<string, number>();
  const walk = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    // Iterative: a chain can be thousands long; links only go to shorter solutions, so it ends.
    const chain: string[] = [];
    let at: string | null = id;
    while (at !== null && !depth.has(at)) {
      chain.push(at);
      at = parentOf.get(at) ?? null;
    }
    let d = at === null ? -1 : (depth.get(at) ?? -1);
    for (let i = chain.length - 1; i >= 0; i--) depth.set(chain[i] as string, ++d);
    return depth.get(id) ?? 0;
  };
  for (const l of links) walk(l.id);
  return depth;
}
