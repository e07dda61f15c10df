import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffFiles } from "./files";
import { applyHunks } from "./text";

describe("diffFiles", () => {
  const parent = {
    "task.toml": 'version = "1.0"\n',
    "README.txt": "notes\n",
    "environment/Dockerfile": "FROM debian:bookworm\n",
    "instruction.md": "Do it.\n",
    "tests/test_outputs.py": "def test_a():\n    assert True\n",
    "tests/test.sh": "pytest\n",
    "solution/solve.sh": "echo a\n",
    "solution/helper.py": "print(1)\n",
  };
  const { "README.txt": _removed, ...kept } = parent;
  const child: Record<string, string> = {
    ...kept,
    "solution/solve.sh": "echo a\necho b\n",
    "instruction.md": "Do it.\nThen more.\n",
    "environment/data.csv": "x,y\n",
  };

  it("lists every path in reviewing order with its status and counts", () => {
    const d = diffFiles(parent, child);
    expect(d.files.map((f) => [f.path, f.status])).toEqual([
      ["solution/solve.sh", "modified"],
      ["tests/test.sh", "unchanged"],
      ["tests/test_outputs.py", "unchanged"],
      ["instruction.md", "modified"],
      ["environment/Dockerfile", "unchanged"],
      ["environment/data.csv", "added"],
      ["task.toml", "unchanged"],
      ["README.txt", "removed"],
      ["solution/helper.py", "unchanged"],
    ]);
    expect(d.counts).toEqual({ added: 1, removed: 1, modified: 2, unchanged: 5, lines_added: 3, lines_removed: 1 });
    expect(d.files.find((f) => f.status === "unchanged")?.hunks).toEqual([]);
    for (const f of d.files) {
      const before = Object.hasOwn(parent, f.path) ? parent[f.path as keyof typeof parent] : null;
      expect(applyHunks(before, f)).toBe(Object.hasOwn(child, f.path) ? child[f.path] : null);
    }
  });

  it("reads own properties only: paths named like Object.prototype members are plain files", () => {
    const oldFiles = JSON.parse('{"constructor": "a\\n", "__proto__": "p\\n"}') as Record<string, string>;
    const d = diffFiles(oldFiles, { toString: "t\n" });
    expect(d.files.map((f) => [f.path, f.status])).toEqual([
      ["__proto__", "removed"],
      ["constructor", "removed"],
      ["toString", "added"],
    ]);
    expect(diffFiles({}, {}).files).toEqual([]);
  });

  it("passes options through", () => {
    const d = diffFiles({ "a.txt": "1\n2\n3\n4\n5\n" }, { "a.txt": "1\n2\nX\n4\n5\n" }, { context: 0 });
    expect(d.files[0]!.hunks[0]!.lines).toHaveLength(2);
  });
});

describe("browser-safe modules", () => {
  // The diff views import these; node built-ins or a parser would break the client bundle.
  it("import nothing from node: or tree-sitter, directly or through each other", () => {
    const dir = import.meta.dirname;
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(path.join(dir, file), "utf8");
      for (const [, spec] of source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+["']([^"']+)["']/gm)) {
        expect(spec, `${file} imports ${spec}`).not.toMatch(/^node:|tree-sitter|^@\/lib\/metrics|^(fs|path|module)$/);
        if (spec!.startsWith("./")) visit(`${spec!.slice(2)}.ts`);
        else expect(["diff"], `${file} imports ${spec}`).toContain(spec);
      }
    };
    visit("index.ts");
    expect([...seen].sort()).toEqual(["align.ts", "files.ts", "index.ts", "intraline.ts", "text.ts", "types.ts"]);
    visit("units.ts");
  });
});
