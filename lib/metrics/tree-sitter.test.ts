import { describe, expect, it } from "vitest";
import { BASH_BLOCKS, BASH_LINES, PYTHON_BLOCKS, PYTHON_LINES, random, randomEdit, randomScript } from "@/lib/diff/random-edits";
import { editBetween, withTree, withTreeReuse } from "./tree-sitter";

const show = (grammar: "bash" | "python", source: string) => withTree(grammar, source, (tree) => `${tree.rootNode.hasError} ${tree.rootNode.toString()}`);

describe("withTreeReuse", () => {
  it("parses a child from its parent's tree into the tree a fresh parse gives", async () => {
    const next = random(4);
    const cases = [
      ["bash", BASH_BLOCKS],
      ["bash", BASH_LINES],
      ["python", PYTHON_BLOCKS],
      ["python", PYTHON_LINES],
    ] as const;
    for (let k = 0; k < 60; k++) {
      for (const [grammar, vocabulary] of cases) {
        const parent = randomScript(next, vocabulary, 10 + Math.floor(next() * 40));
        const child = randomEdit(next, parent, vocabulary);
        const fresh = await show(grammar, child);
        const reused = await withTreeReuse(async () => {
          await show(grammar, parent);
          return show(grammar, child);
        });
        expect(reused, `${grammar} case ${k}`).toBe(fresh);
      }
    }
  });

  it("reads the same source again from the same tree, unparsed", async () => {
    const source = randomScript(random(5), BASH_BLOCKS, 30);
    const fresh = await show("bash", source);
    const trees = await withTreeReuse(async () => {
      const first = await withTree("bash", source, (tree) => tree);
      const again = await withTree("bash", source, (tree) => tree);
      const other = await withTree("python", source, (tree) => tree);
      return { same: first === again, otherGrammar: first === other, text: await show("bash", source) };
    });
    expect(trees).toEqual({ same: true, otherGrammar: false, text: fresh });
  });

  it("describes the edit between two texts in code units, rows and columns", () => {
    const { edit, shared } = editBetween("a\nbé🙂c\nd\n", "a\nbé🙂XYc\nd\n");
    expect(shared).toBe("a\nbé🙂c\nd\n".length);
    expect([edit.startIndex, edit.oldEndIndex, edit.newEndIndex]).toEqual([6, 6, 8]);
    expect(edit.startPosition).toEqual({ row: 1, column: 4 });
    expect(edit.newEndPosition).toEqual({ row: 1, column: 6 });
    // A change inside a surrogate pair starts before the pair.
    expect(editBetween("x🙂", "x🙃").edit.startIndex).toBe(1);
  });
});
