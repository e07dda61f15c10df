// Lineage inference on hand-written solutions: a parent is the shorter solution its child keeps
// best, in order — not the grandparent (kept too, but shorter), not a sibling (whose own step the
// child lacks) — and near ties are parted by the instruction and verifier, or reported as ties.
import { describe, expect, test } from "vitest";
import { depthsOf, inferLineage, lcsLength, solutionLines, type InferInput } from "./infer";

const step = (name: string, n = 4) => Array.from({ length: n }, (_, i) => `${name}_${i} --flag /srv/${name}/${i}`).join("\n");
const script = (...steps: string[]) => `#!/bin/bash\nset -euo pipefail\n\n${steps.join("\n\n")}\n`;

function parents(inputs: InferInput[]): Record<string, string | null> {
  return Object.fromEntries(inferLineage(inputs).map((l) => [l.id, l.parent]));
}

describe("lcsLength", () => {
  test("counts the items kept in order, by dynamic programming and, past its size, by a Myers diff", () => {
    expect(lcsLength(["a", "b", "c", "d"], ["b", "x", "d", "a"])).toBe(2);
    expect(lcsLength([], ["a"])).toBe(0);
    // 600 x 600 cells is past the dynamic programming's limit: the same answer from the diff.
    const a = Array.from({ length: 600 }, (_, i) => i % 7);
    const b = Array.from({ length: 600 }, (_, i) => (i * 3) % 7);
    const small = (n: number) => lcsLength(a.slice(0, n), b.slice(0, n));
    const dp = (x: readonly number[], y: readonly number[]) => {
      let prev = new Array<number>(y.length + 1).fill(0);
      for (const v of x) {
        const row = [0];
        for (let j = 1; j <= y.length; j++) row[j] = v === y[j - 1] ? (prev[j - 1] ?? 0) + 1 : Math.max(prev[j] ?? 0, row[j - 1] ?? 0);
        prev = row;
      }
      return prev[y.length] ?? 0;
    };
    expect(small(40)).toBe(dp(a.slice(0, 40), b.slice(0, 40)));
    expect(lcsLength(a, b)).toBe(dp(a, b));
  });
});

describe("lineage inference", () => {
  test("a sibling that made the child's own step is kept whole too, but the child begins with its parent", () => {
    const inputs: InferInput[] = [
      { id: "seed", solution: script(step("seed")) },
      { id: "parent", solution: script(step("seed"), step("small", 2)) },
      { id: "sibling", solution: script(step("seed"), step("big", 8)) },
      { id: "child", solution: script(step("seed"), step("small", 2), step("big", 8)) },
    ];
    expect(parents(inputs)).toEqual({ seed: null, parent: "seed", sibling: "seed", child: "parent" });
    const child = inferLineage(inputs).find((l) => l.id === "child");
    expect(child?.evidence).toMatchObject({ confidence: 0.5, shared_lines: 8, runner_up: { id: "sibling", shared_lines: 14 } });
  });

  test("parent, not grandparent or sibling; seeds and tasks without a solution are roots", () => {
    const inputs: InferInput[] = [
      { id: "child", solution: script(step("seed"), step("one"), step("two")) },
      { id: "sibling", solution: script(step("seed"), step("one"), step("other")) },
      { id: "seed", solution: script(step("seed")) },
      { id: "parent", solution: script(step("seed"), step("one")) },
      { id: "other-seed", solution: script(step("elsewhere", 6)) },
      { id: "no-solution", solution: null },
    ];
    expect(parents(inputs)).toEqual({ child: "parent", sibling: "parent", seed: null, parent: "seed", "other-seed": null, "no-solution": null });
    const links = inferLineage(inputs);
    const child = links.find((l) => l.id === "child");
    expect(child?.evidence).toMatchObject({ shared_lines: 10, parent_lines: 10, child_lines: 14, runner_up: { id: "seed", shared_lines: 6 } });
    expect(child?.evidence.confidence).toBe(0.5); // kept whole, the runner-up a four-line step behind: 4 / (4 + 4)
    expect(depthsOf(links)).toEqual(new Map([["child", 2], ["sibling", 2], ["seed", 0], ["parent", 1], ["other-seed", 0], ["no-solution", 0]]));
  });

  test("a child that rewrote a few of its parent's lines still finds it, with less confidence", () => {
    const parent = script(step("seed"), step("one", 8));
    const rewritten = parent.replace("one_3 --flag /srv/one/3", 'one_3 --flag "$ROOT/one/3"').replace("#!/bin/bash\n", '#!/bin/bash\nROOT="${ROOT:-/srv}"\n');
    const links = inferLineage([
      { id: "seed", solution: script(step("seed")) },
      { id: "parent", solution: parent },
      { id: "child", solution: `${rewritten}\n${step("two")}\n` },
    ]);
    const child = links.find((l) => l.id === "child");
    expect(child?.parent).toBe("parent");
    expect(child?.evidence.shared_lines).toBe(13);
    expect(child?.evidence.confidence).toBeLessThan(links.find((l) => l.id === "parent")?.evidence.confidence ?? 0);
  });

  test("two candidates with the same solution are parted by what else the child kept; without it, a tie says so", () => {
    const seedScript = script(step("seed"));
    const inputs: InferInput[] = [
      { id: "seed-a", solution: seedScript, context: "# Build the report\nWrite /srv/report.txt.\n" },
      { id: "seed-b", solution: seedScript, context: "# Rotate the logs\nKeep seven days of /var/log/app.\n" },
      { id: "child", solution: script(step("seed"), step("one")), context: "# Rotate the logs\nKeep seven days of /var/log/app.\nAlso compress them.\n" },
    ];
    expect(parents(inputs).child).toBe("seed-b");
    const blind = inferLineage(inputs.map((t) => ({ ...t, context: null }))).find((l) => l.id === "child");
    expect(blind?.evidence.confidence).toBe(0);
    expect(blind?.evidence.runner_up?.shared_lines).toBe(blind?.evidence.shared_lines);
  });

  test("links only go to shorter solutions, so they never form a cycle", () => {
    const a = script(step("a"));
    const inputs: InferInput[] = [
      { id: "x", solution: a },
      { id: "y", solution: a },
      { id: "z", solution: `${a}\n${step("z")}` },
    ];
    const got = parents(inputs);
    expect(got.x).toBeNull();
    expect(got.y).toBeNull();
    expect(["x", "y"]).toContain(got.z);
  });

  test("lines are compared with trailing blanks trimmed and blank lines dropped", () => {
    expect(solutionLines("a  \n\n  \nb\t\n")).toEqual(["a", "b"]);
  });
});
