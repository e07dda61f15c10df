// Test support: random scripts and random edits of them, for the property tests of the diff page's shortcuts
// (tokenizing only what the view shows, parsing a child from its parent's tree): real pairs can
// change lines anywhere, so the edits are not shaped like the demo generator's.

/** A small deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** Lines that open or close multi-line constructs (heredocs, strings, blocks) among plain ones. */
export const BASH_LINES = [
  "#!/bin/bash",
  "set -euo pipefail",
  "# a comment with 'quotes' and EOF in it",
  'echo "step $i" >> /tmp/log',
  "cat > /etc/app.conf <<'EOF'",
  "cat <<EOF",
  "key = value # not a comment",
  "EOF",
  "python3 - <<'PY'",
  "import os; print(os.getcwd())",
  "PY",
  'echo "an open string',
  'still inside" && true',
  "x=$(ls /app \\",
  "  | wc -l)",
  "if [ -f /app/out.txt ]; then",
  "  rm -f /app/out.txt",
  "fi",
  "for f in /app/*.csv; do sed -i 's/,/;/g' \"$f\"; done",
  "deploy() {",
  "  cp -r /src /dst",
  "}",
  "deploy &",
  "a=1; b=2",
  "echo 'single",
  "quoted'",
  "",
  "   ",
  `echo ${"x".repeat(2_100)}`,
  "case $1 in",
  "  start) run ;;",
  "esac",
];

export const PYTHON_LINES = [
  "import os",
  "",
  "def test_exists():",
  '    assert os.path.exists("/app/out.txt")',
  '    """a docstring',
  '    that spans lines"""',
  "class TestThing:",
  "    def test_method(self):",
  "        assert 1 + 1 == 2",
  "    def helper(self):",
  "        return '''open",
  "still open'''",
  "x = [1,",
  "     2]",
  "# def test_commented():",
  "@pytest.mark.parametrize('v', [1, 2])",
  "def test_param(v):",
  "    assert v",
  "async def test_async():",
  "    pass",
  "if True:",
  "    def test_nested():",
  "        pass",
  's = "unterminated',
];

/** Complete statements (a script of these parses), some spanning lines, with comments inside. */
export const BASH_BLOCKS = [
  "set -euo pipefail",
  "# a comment",
  'echo "step $i" >> /tmp/log  # trailing comment',
  "cat > /etc/app.conf <<'EOF'\nkey = value # not a comment\nother=1\nEOF",
  "cat <<EOF | sort\n$HOME\n  indented\nEOF",
  "python3 - <<'PY'\nimport os  # inside\nprint(os.getcwd())\nPY",
  'echo "a string\nover two lines"',
  "x=$(ls /app \\\n  | wc -l)",
  "if [ -f /app/out.txt ]; then\n  # remove it\n  rm -f /app/out.txt\nfi",
  "for f in /app/*.csv; do sed -i 's/,/;/g' \"$f\"; done",
  "deploy() {\n  cp -r /src /dst  # copy\n}",
  "deploy &",
  "a=1; b=2",
  "apt-get update && \\\n  apt-get install -y curl \\\n  jq",
  "",
  "echo 'héllo wörld ✓ 🙂'",
  "case $1 in\n  start) run ;;\n  *) echo no ;;\nesac",
  "while read -r line; do\n  echo \"$line\"\ndone < /app/in.txt",
];

export const PYTHON_BLOCKS = [
  "import os",
  "",
  'def test_exists():\n    assert os.path.exists("/app/out.txt")',
  'def helper():\n    """a docstring\n    over lines"""\n    return "/tmp/x"',
  "class TestThing:\n    def test_method(self):\n        assert 1 + 1 == 2\n        assert '/app/a'\n\n    def helper(self):\n        return 1",
  "@pytest.mark.parametrize('v', [1, 2])\ndef test_param(v):\n    assert v",
  "async def test_async():\n    pass",
  "if True:\n    def test_nested():\n        pass",
  "x = [1,\n     2]  # 'é' ✓",
  "def test_concat():\n    p = '/app/' 'data.csv'\n    assert p",
];

export function randomScript(next: () => number, vocabulary: readonly string[], lines: number): string {
  return Array.from({ length: lines }, () => pick(next, vocabulary)).join("\n") + "\n";
}

/** A child of `text`: a few insertions, deletions and replacements anywhere, of lines or characters. */
export function randomEdit(next: () => number, text: string, vocabulary: readonly string[]): string {
  const lines = text.split("\n");
  const edits = 1 + Math.floor(next() * 4);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(next() * (lines.length + 1));
    const kind = next();
    if (kind < 0.35) lines.splice(at, 0, ...Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(next, vocabulary)));
    else if (kind < 0.6) lines.splice(at, 1 + Math.floor(next() * 4));
    else if (kind < 0.85) lines.splice(at, 1, pick(next, vocabulary));
    else if (lines[at] !== undefined) {
      // A character-level change inside a line.
      const line = lines[at] ?? "";
      const cut = Math.floor(next() * (line.length + 1));
      lines[at] = line.slice(0, cut) + pick(next, ['"', "'", "x", " ", "#", "EOF", "\\"]) + line.slice(cut);
    }
  }
  // Now and then an appended tail, the common shape of a lineage step.
  if (next() < 0.3) lines.push(...Array.from({ length: 5 + Math.floor(next() * 20) }, () => pick(next, vocabulary)));
  return lines.join("\n");
}
