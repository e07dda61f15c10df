import { describe, expect, it } from "vitest";
import { analyseShell, Reader } from "./shell";
import { readWithMvdan } from "./shell-mvdan";
import { clearShellTreeMemo } from "./shell-tree";

const SCRIPT = `#!/bin/bash
set -euo pipefail
cd /srv/app
OUT=/srv/app/out
mkdir -p "$OUT"
install() { command install "$@"; }
sort -o "\${OUT}/sorted.txt" data.txt
printf 'x\\n' > report.txt
for f in a b; do touch "$OUT/$f.flag"; done
tee -a /var/log/app.log < /dev/null > /dev/null
tar -czf "$OUT/bundle.tgz" -C "$OUT" .
cp -a /srv/app/templates/. /srv/app/site/
gzip -t "$OUT/bundle.tgz"
sqlite3 -separator ' ' "$OUT/db.sqlite" "SELECT 1;"
git init -q -b main /srv/app/repo
cat > "$OUT/tmp.json" <<'JSON'
{}
JSON
mv "$OUT/tmp.json" "$OUT/final.json"
openssl req -x509 -newkey rsa:2048 -nodes -keyout /etc/ssl/app.key -out /etc/ssl/app.crt -subj /CN=x
`;

describe("analyseShell", () => {
  it("finds the files a script makes, with variables, cd and option values resolved", async () => {
    const a = await analyseShell(SCRIPT);
    expect(a.hasError).toBe(false);
    const paths = a.artifacts.map((x) => `${x.line} ${x.path}`);
    expect(paths).toEqual([
      "7 /srv/app/out/sorted.txt",
      "8 /srv/app/report.txt",
      "10 /var/log/app.log",
      "11 /srv/app/out/bundle.tgz",
      "12 /srv/app/site",
      "14 /srv/app/out/db.sqlite",
      "15 /srv/app/repo",
      "16 /srv/app/out/tmp.json",
      "19 /srv/app/out/final.json",
      "20 /etc/ssl/app.key",
      "20 /etc/ssl/app.crt",
    ]);
    expect(a.removed.map((r) => r.path)).toEqual(["/srv/app/out/tmp.json"]);
  });

  it("gives the files of a script with a syntax error after blank lines their real lines", async () => {
    const a = await analyseShell("\n\necho a > /app/out.txt\nif [ ; then\n", { workdir: "/app" });
    expect(a.hasError).toBe(true);
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["3 /app/out.txt"]);
  });

  it("mvdan-sh's reading of a script tree-sitter reads cleanly finds the same files", async () => {
    const a = await analyseShell(SCRIPT, { workdir: null });
    const lines = SCRIPT.split("\n");
    const reader = new Reader(lines, null);
    expect(readWithMvdan(SCRIPT, reader, lines)).toBe(true);
    expect(reader.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(a.artifacts.map((x) => `${x.line} ${x.path}`));
    expect(reader.removed).toEqual(a.removed);
  });

  it("reads a script tree-sitter glues together after repairing the glue, and gets the same files as mvdan-sh", async () => {
    // tree-sitter-bash glues the line after a quoted pipeline argument onto that command.
    const glued = `#!/bin/bash
OUT=/opt/x
"$OUT/bin/tool" \\
  | tee /dev/stderr \\
  | grep -q '^reports: '
shellcheck --version | sed -n 2p
SRC=/opt/x/tools
cat > "$SRC/main.c" <<'CSRC'
int main(void) { return 0; }
CSRC
`;
    const a = await analyseShell(glued);
    expect(a.hasError).toBe(false);
    expect(a.parser).not.toBe("mvdan-sh");
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["8 /opt/x/tools/main.c"]);
    const lines = glued.split("\n");
    const exact = new Reader(lines, null);
    expect(readWithMvdan(glued, exact, lines)).toBe(true);
    // (the parsers disagree only on a heredoc statement's span: tree-sitter includes its body)
    const read = (xs: typeof a.artifacts) => xs.map((x) => [x.path, x.via, x.line, x.excerpt]);
    expect(read(a.artifacts)).toEqual(read(exact.artifacts));
  });

  it("says nothing it would have to guess: loop variables and command substitutions", async () => {
    const a = await analyseShell(`D=$(mktemp -d)\nfor f in a b; do echo > "/opt/$f"; done\necho > "$D/x"\necho > "$UNSET/y"\n`);
    expect(a.artifacts).toEqual([]);
  });

  it("reads a shell script the solution writes with a heredoc: its files are the step's too", async () => {
    const script = `SCRIPT=/usr/local/bin/nightly\ncat > "$SCRIPT" <<'EOS'\n#!/bin/sh\nset -eu\ndate > /var/log/app/nightly.heartbeat\nEOS\nchmod 755 "$SCRIPT"\n`;
    const a = await analyseShell(script);
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["2 /usr/local/bin/nightly", "5 /var/log/app/nightly.heartbeat"]);
    // A child's solution writes the same script further down (its reading is remembered by text).
    const child = await analyseShell(`mkdir -p /var/log/app\n\n${script}rm -f /tmp/old\n`);
    expect(child.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["4 /usr/local/bin/nightly", "7 /var/log/app/nightly.heartbeat"]);
    expect(child.removed.map((x) => `${x.line} ${x.path}`)).toEqual(["10 /tmp/old"]);
    const again = await analyseShell(script);
    expect(again.artifacts.map((x) => x.line)).toEqual([2, 5]);
  });

  it("reads what a Python program it runs or writes creates, and leaves out what it would have to guess", async () => {
    const script = `#!/bin/bash
OUT=/srv/app/out
python3 - "$OUT" <<'PY'
import json, shutil, sqlite3, sys
from pathlib import Path

BASE = Path("/srv/app")
REPORT = BASE / "out" / "summary.json"
with open(REPORT, "w") as f:
    json.dump({}, f)
(BASE / "out" / "notes.txt").write_text("ok\\n")
shutil.copy(REPORT, f"{BASE}/archive/summary-latest.json")
db = sqlite3.connect("/srv/app/out/app.db")
print(open("/srv/app/data/input.csv").read())
for name in ["a", "b"]:
    open(f"/srv/app/out/{name}.txt", "w").close()
open(sys.argv[1] + "/argv.txt", "w").close()
open("/tmp/scratch.txt", "w").close()
PY
cat > /usr/local/bin/rotate.py <<'EOF'
#!/usr/bin/env python3
import gzip
with gzip.open("/var/log/app/rotated.gz", "wt") as out:
    out.write("x")
EOF
python3 <<EOF
open("$OUT/expanded.txt", "w").close()
EOF
`;
    const a = await analyseShell(script);
    expect(a.artifacts.map((x) => `${x.line} ${x.path} ${x.via}`)).toEqual([
      "20 /usr/local/bin/rotate.py >",
      "9 /srv/app/out/summary.json open (in a Python program it runs)",
      "11 /srv/app/out/notes.txt write_text (in a Python program it runs)",
      "12 /srv/app/archive/summary-latest.json shutil.copy (in a Python program it runs)",
      "13 /srv/app/out/app.db sqlite3.connect (in a Python program it runs)",
      "23 /var/log/app/rotated.gz gzip.open (in a Python program it runs)",
    ]);
    // A program tree-sitter-python cannot read is not read.
    const broken = await analyseShell(`python3 - <<'PY'\nopen("/srv/x.txt", "w"\nPY\n`);
    expect(broken.artifacts).toEqual([]);
  });
});

// tree-sitter-bash 0.25 runs `uniq -c` on into the next two lines after this pipeline (found in
// generated solutions; no error node). The reading repairs the glue instead of parsing again with
// mvdan-sh, and reads the commands after it.
const GLUED = `chmod -R go-rwx "$REDACTED"
jq -r '.[].file' "$OUT" \\
  | sort \\
  | uniq -c
jq -r 'group_by(.kind)[] | "\\(.[0].kind) \\(length)"' "$OUT"
diff -rq "$SRC" "$REDACTED" | wc -l
echo "$count findings; redacted copy in $REDACTED"

# Probe the reports over HTTP the way the load balancer will, and keep the evidence.
OUT=/srv/scheduler/reports/health.json
python3 -m http.server 9852 --bind 127.0.0.1 --directory /srv/scheduler/reports > /dev/null 2>&1 &
touch /srv/scheduler/ready.flag
`;

describe("a command tree-sitter glues onto the next lines", () => {
  it("is read by tree-sitter after a repair, the same as mvdan-sh reads it", async () => {
    const lines = GLUED.split("\n");
    const plain = new Reader(lines, null);
    expect(readWithMvdan(GLUED, plain, lines)).toBe(true);
    const a = await analyseShell(GLUED);
    expect(a.hasError).toBe(false);
    expect(a.parser).not.toBe("mvdan-sh");
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["12 /srv/scheduler/ready.flag"]);
    expect(a.artifacts).toEqual(plain.artifacts);
  });

  it("keeps the original lines in the evidence (the repair only adds a `;`)", async () => {
    const script = `jq -r x "$OUT" \\\n  | sort \\\n  | uniq -c\ntouch /srv/a.txt # made here\n`;
    const a = await analyseShell(script);
    expect(a.artifacts.map((x) => [x.line, x.excerpt])).toEqual([[4, "touch /srv/a.txt # made here"]]);
  });
});

describe("statements seen in another script", () => {
  it("are read with this script's variables, directory and lines", async () => {
    clearShellTreeMemo();
    const step = `tar -czf "$OUT/b.tgz" data; sqlite3 ./db.sqlite 'select 1'\n`;
    const parent = `cd /srv\nOUT=/srv/out\n${step}`;
    // The same statement after other variables and another directory, two rows further down.
    const child = `set -e\ncd /opt\nOUT=/opt/out\n\n${step}`;
    const fresh = await analyseShell(child);
    clearShellTreeMemo();
    await analyseShell(parent);
    const again = await analyseShell(child);
    expect(again).toEqual(fresh);
    expect(again.artifacts.map((x) => `${x.line} ${x.path} ${x.startLine}-${x.endLine} ${x.excerpt}`)).toEqual([
      `5 /opt/out/b.tgz 5-5 ${step.trim()}`,
      `5 /opt/db.sqlite 5-5 ${step.trim()}`,
    ]);
  });
});
