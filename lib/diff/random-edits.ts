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
