import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { heredocAtRisk } from "./heredoc-risk";
import { measureShell } from "./shell";
import { summarizeFacts } from "./shell-facts";
import { readRepairingGlueMapped, unbraceSubstringOffsets } from "./shell-glue";
import { readWithMvdan } from "./shell-mvdan";
import { readBashTree } from "./shell-tree-sitter";
import { withStatements } from "./script-parse";

const script = (...lines: string[]): string => `${lines.join("\n")}\n`;

describe("heredoc bodies", () => {
  it("are not commands when tree-sitter reads them right", async () => {
    const metrics = await measureShell(script("python3 - <<'PY'", "import sys", "print(sys.argv)", "PY", "echo done"));
    expect(metrics).toMatchObject({ commands: 2, tools: ["python3"], parser: "tree-sitter", lines: 5 });
  });

  it("run their $(…) substitutions when the delimiter is unquoted", async () => {
    const unquoted = await measureShell(script("cat > note <<EOF", "built $(date -u)", "EOF"));
    const quoted = await measureShell(script("cat > note <<'EOF'", "built $(date -u)", "EOF"));
    expect(unquoted.tools).toEqual(["cat", "date"]);
    expect(quoted.tools).toEqual(["cat"]);
  });

  it.each([
    ["a line starting with the delimiter", "EOFError = 1"],
    ["an indented delimiter", "    EOF"],
    ["the delimiter with trailing space", "EOF "],
  ])("survive %s (tree-sitter's delimiter-prefix bug)", async (_case, trap) => {
    const metrics = await measureShell(
      script("python3 - <<EOF", "import os", trap, "os.remove('/tmp/x')", "print(1)", "EOF", "echo done"),
    );
    // Without the fallback the rest of the body becomes commands named os.remove(, print, EOF…
    expect(metrics.commands).toBe(2);
    expect(metrics.tools).toEqual(["python3"]);
    expect(metrics.parser).toBe("mvdan-sh");
    expect(metrics.lines).toBe(7);
  });

  it("survive the bug in a CRLF script", async () => {
    const metrics = await measureShell("python3 - <<EOF\r\nEOFError = 1\r\nprint(2)\r\nEOF\r\necho done\r\n");
    expect(metrics).toMatchObject({ commands: 2, tools: ["python3"], parser: "mvdan-sh", lines: 5 });
  });

  it("survive the bug in a quoted, tab-stripping heredoc too", async () => {
    const metrics = await measureShell(script("if true; then", "\tcat <<-'END' > f", "\t\tENDPOINT=/api", "\t\tEND_X", "\tEND", "fi", "ls"));
    expect(metrics.commands).toBe(3);
    expect(metrics.tools).toEqual(["cat", "ls"]);
    expect(metrics.parser).toBe("mvdan-sh");
  });

  it("keep the fast parser when a tab-indented terminator closes a <<- heredoc", async () => {
    const metrics = await measureShell(script("cat <<-EOF", "\thello", "\tEOF", "ls"));
    expect(metrics).toMatchObject({ commands: 2, parser: "tree-sitter" });
  });

  it("fall back when tree-sitter cannot read several heredocs on one line", async () => {
    const metrics = await measureShell(script("cat <<A <<B", "a", "A", "b", "B", "wc -l f"));
    expect(metrics).toMatchObject({ commands: 2, tools: ["cat", "wc"], parser: "mvdan-sh" });
  });
});

describe("heredocAtRisk", () => {
  const lines = (...rows: string[]): string[] => rows;
  const start = { row: 0, delimiter: "EOF", stripsTabs: false };

  it("flags only lines between the start and the real terminator", () => {
    expect(heredocAtRisk(lines("cat <<EOF", "EOFError", "EOF"), [start])).toBe(true);
    expect(heredocAtRisk(lines("cat <<EOF", "x", "EOF", "EOFError=1"), [start])).toBe(false);
    expect(heredocAtRisk(lines("cat <<EOF", "x", "EOF"), [start])).toBe(false);
  });

  it("accepts tab-indented terminators only for <<-", () => {
    expect(heredocAtRisk(lines("cat <<-EOF", "\tEOF"), [{ ...start, stripsTabs: true }])).toBe(false);
    expect(heredocAtRisk(lines("cat <<EOF", "\tEOF", "EOF"), [start])).toBe(true);
  });
});

describe("lines tree-sitter glues onto the previous command", () => {
  it("stay their own commands when they start with a backslash", async () => {
    const metrics = await measureShell(script("cp a b", "\\cp -f c d", "X=1", "\\rm -f y"));
    expect(metrics).toMatchObject({ commands: 3, tools: ["cp", "rm"], lines: 4 });
  });

  it("stay their own commands after a `\\`-continued pipeline: tree-sitter, repaired, reads what mvdan-sh reads", async () => {
    // A generated solution (round 1) on which tree-sitter-bash runs `uniq -c` on into the next two
    // lines, with no error node. Whether it does depends on the text around (no small excerpt
    // shows it), so the test keeps the whole script and first checks that the glue is there.
    const source = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "glued-pipeline.sh"), "utf8");
    const lines = source.split("\n");
    const raw = await withStatements("bash", source, (script) => readBashTree(script, lines));
    expect(raw).toMatchObject({ hasError: false, gluedLines: false });
    expect(raw.gluedAt).not.toBeNull();
    const mvdan = readWithMvdan(source);
    expect(mvdan).not.toBeNull();
    const expected = summarizeFacts(mvdan!);
    const metrics = await measureShell(source);
    expect(metrics).toMatchObject({ commands: expected.commands, tools: expected.tools, parser: "tree-sitter" });
    expect(metrics.commands).toBeGreaterThan(summarizeFacts(raw.facts).commands);
  });

  it("stay their own commands after a line of assignments", async () => {
    // From a generated solution: after this much text tree-sitter-bash reads the assignments as
    // the prefix of a command named `while`, with `do` and `done` commands of their own.
    const source = script(
      'strip "$TARGET"',
      "",
      "# Reference values computed in plain bash, independent of the C code.",
      "n=0 total=0 top=0",
      "while read -r v; do",
      "  total=$((total + v))",
      'done < "$SAMPLE"',
      'echo "$total"',
    );
    const raw = await withStatements("bash", source, (s) => readBashTree(s, source.split("\n")));
    expect(raw.facts.commands.map((words) => words[0])).toEqual(["strip", "while", "do", "done", "echo"]);
    expect(raw.gluedAt).toBe(source.indexOf("top=0") + "top=0".length);
    expect(await measureShell(source)).toMatchObject({ commands: 3, tools: ["strip"], parser: "tree-sitter" });
    expect(summarizeFacts(readWithMvdan(source)!)).toEqual({ commands: 3, tools: ["strip"] });
  });

  it("stay their own commands after a redirect that ends a `\\`-continued pipeline", async () => {
    // A generated solution (round 1) on which tree-sitter-bash reads `> "$status_file"` as a
    // redirect whose destination runs on over the next forty lines (the comment, the next
    // pipelines, the appended step), with no error node and no command spanning the glue.
    const source = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "glued-redirect.sh"), "utf8");
    const lines = source.split("\n");
    const raw = await withStatements("bash", source, (script) => readBashTree(script, lines));
    expect(raw).toMatchObject({ hasError: false });
    expect(raw.gluedAt).not.toBeNull();
    const expected = summarizeFacts(readWithMvdan(source)!);
    const metrics = await measureShell(source);
    expect(metrics).toMatchObject({ commands: expected.commands, tools: expected.tools, parser: "tree-sitter" });
    expect(metrics.commands).toBe(47);
  });
});

describe("substring expansions with a $name offset", () => {
  // The backup-rotation idiom: every generated task that keeps the newest N archives has it, and so
  // does each of its descendants.
  const rotation = script(
    "mapfile -t archives < <(find \"$DEST\" -name '*.tar.gz' | sort -r)",
    'for old in "${archives[@]:$KEEP}"; do',
    '  rm -f -- "$old"',
    "done",
    'echo "${name:$i:1}" "${name: $start - 1}"',
  );

  it("are an error to tree-sitter-bash as written", async () => {
    expect(await withStatements("bash", rotation, (s) => s.hasError)).toBe(true);
  });

  it("are read by tree-sitter, not the slow fallback, with what mvdan-sh reads", async () => {
    const metrics = await measureShell(rotation);
    const expected = summarizeFacts(readWithMvdan(rotation)!);
    expect(metrics).toMatchObject({ parser: "tree-sitter", commands: expected.commands, tools: expected.tools, lines: 5 });
    expect(metrics.tools).toEqual(["find", "mapfile", "rm", "sort"]);
  });

  it("lose their offset's `$` only: the same length and rows, other operators untouched", () => {
    const cases: [string, string][] = [
      ['"${a[@]:$KEEP}"', '"${a[@]: KEEP}"'],
      ["${a:$i:1}", "${a: i:1}"],
      ["${a: $K - 1}", "${a:  K - 1}"],
      ["${1:$n} ${@:$n} ${!ref:$n}", "${1: n} ${@: n} ${!ref: n}"],
      ["${a:1:$n}", "${a:1:$n}"],
      ["${a:-$K} ${a:=$K} ${a:+$K} ${a:?$K} ${a:${K}}", "${a:-$K} ${a:=$K} ${a:+$K} ${a:?$K} ${a:${K}}"],
      ["x=$a:$b", "x=$a:$b"],
    ];
    for (const [from, to] of cases) {
      expect(unbraceSubstringOffsets(from)).toBe(to);
      expect(unbraceSubstringOffsets(from)).toHaveLength(from.length);
    }
  });
});

describe("words tree-sitter splits after a $name", () => {
  const cases = [
    // [script, commands, tools]: what bash (and mvdan-sh) reads
    ["fresh=$DEST/shipping-$stamp.tar.gz", 0, []],
    ["cp $DEST/report-$day.csv /tmp/", 1, ["cp"]],
    ["out=$a/$b/$c.d\nls", 1, ["ls"]],
    ["echo hi > $LOGS/$name.log", 1, []],
    ["f=$D/a-$1.x; wc -l \"$f\"", 1, ["wc"]],
    ["v=$D/$name+1; g=$D/$n*; sort $v", 1, ["sort"]],
  ] as const;

  it.each(cases)("read as one word: %j", async (source, commands, tools) => {
    const text = `${source}\n`;
    const mvdan = summarizeFacts(readWithMvdan(text)!);
    expect([mvdan.commands, mvdan.tools]).toEqual([commands, tools]);
    expect(await measureShell(text)).toMatchObject({ parser: "tree-sitter", commands, tools });
  });

  it("are split as written, with no error node (the misreading the repair is for)", async () => {
    const text = "fresh=$DEST/shipping-$stamp.tar.gz\n";
    const raw = await withStatements("bash", text, (s) => ({ hasError: s.hasError, commands: readBashTree(s, text.split("\n")).facts.commands }));
    expect(raw).toEqual({ hasError: false, commands: [["stamp.tar.gz"]] });
  });

  it("map the statements' offsets back to the script as written", async () => {
    const text = "cp $D/s-$t.x /tmp/\nf=$D/a-$n.gz\nls\n";
    const { reading, toSource } = await readRepairingGlueMapped(text, (s, parsed) => ({
      gluedAt: null,
      spans: s.statements.filter((t) => t.isNamed).map((t) => ({ from: t.startIndex, to: t.endIndex, parsed: parsed.slice(t.startIndex, t.endIndex) })),
    }));
    expect(reading.spans.map((t) => text.slice(toSource(t.from), toSource(t.to)))).toEqual(["cp $D/s-$t.x /tmp/", "f=$D/a-$n.gz", "ls"]);
    expect(reading.spans.map((t) => t.parsed)).toEqual(["cp $D/s-${t}.x /tmp/", "f=$D/a-${n}.gz", "ls"]);
  });
});

describe("unparseable scripts", () => {
  it("still get tree-sitter's best-effort counts instead of an error", async () => {
    const metrics = await measureShell(script("ls -la", "if then fi (", "pwd"));
    expect(metrics.parser).toBe("tree-sitter");
    expect(metrics.lines).toBe(3);
    expect(metrics.tools).toEqual(expect.arrayContaining(["ls", "pwd"]));
  });
});
