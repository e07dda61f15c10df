import { describe, expect, it } from "vitest";
import { analysePytest } from "./pytest";

describe("analysePytest", () => {
  it("follows constants, helpers and fixtures to the paths each test reads", async () => {
    const text = [
      "import os, subprocess",
      'BASE = "/srv/data"',
      "DB = os.path.join(BASE, 'app.db')",
      "def rows():",
      "    return open(DB).read()",
      "def test_rows():",
      "    assert rows()",
      "def test_listing():",
      '    subprocess.run(["ls", "/var/log/app"])',
      "    assert True",
      "",
    ].join("\n");
    const a = await analysePytest(text);
    expect(a.tests.map((t) => [t.name, t.line, t.asserts])).toEqual([
      ["test_rows", 6, 1],
      ["test_listing", 8, 1],
    ]);
    // The constant reached through the helper counts where the test names the helper; not found in
    // the test itself, at its `def`.
    expect(a.tests[0]?.paths).toEqual([{ path: "/srv/data/app.db", kind: "literal", line: 6, excerpt: "def test_rows():" }]);
    expect(a.tests[1]?.listed).toEqual(["/var/log/app"]);
  });

  it("gives a file with a syntax error and leading blank lines its real line numbers", async () => {
    const text = ["", "", "OUT = '/app/out.txt'", "def test_out():", "    assert open(OUT).read()", "    x = (", "def test_more():", '    assert "/app/more.txt"', ""].join("\n");
    const a = await analysePytest(text);
    const out = a.tests.find((t) => t.name === "test_out");
    expect(out?.line).toBe(4);
    expect(out?.paths.map((p) => [p.path, p.line])).toContainEqual(["/app/out.txt", 5]);
    expect(a.paths.map((p) => [p.path, p.line, p.excerpt])).toContainEqual(["/app/out.txt", 3, "OUT = '/app/out.txt'"]);
  });

  it("lists a path once per line and kind, though Path() spells it as a call and as a string", async () => {
    const text = ["from pathlib import Path", "def test_report():", '    p = Path("/app/report.txt")', "    assert p.is_file()", '    assert "/app/report.txt" in str(p)', ""].join("\n");
    const a = await analysePytest(text);
    const refs = (list: { path: string; kind: string; line: number }[]) => list.map((r) => [r.path, r.kind, r.line]);
    expect(refs(a.tests[0]?.paths ?? [])).toEqual([
      ["/app/report.txt", "literal", 3],
      ["/app/report.txt", "literal", 5],
    ]);
    expect(refs(a.paths)).toEqual(refs(a.tests[0]?.paths ?? []));
  });
});
