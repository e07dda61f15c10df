import { describe, expect, it } from "vitest";
import { analyseShell, Reader } from "./shell";
import { readWithMvdan } from "./shell-mvdan";

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

  it("mvdan-sh's reading of a script tree-sitter reads cleanly finds the same files", async () => {
    const a = await analyseShell(SCRIPT, { workdir: null });
    const lines = SCRIPT.split("\n");
    const reader = new Reader(lines, null);
    expect(readWithMvdan(SCRIPT, reader, lines)).toBe(true);
    expect(reader.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(a.artifacts.map((x) => `${x.line} ${x.path}`));
    expect(reader.removed).toEqual(a.removed);
  });

  it("reads a script tree-sitter glues together with mvdan-sh, and gets the same files", async () => {
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
    expect(a.parser).toBe("mvdan-sh");
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["8 /opt/x/tools/main.c"]);
  });

  it("says nothing it would have to guess: loop variables and command substitutions", async () => {
    const a = await analyseShell(`D=$(mktemp -d)\nfor f in a b; do echo > "/opt/$f"; done\necho > "$D/x"\necho > "$UNSET/y"\n`);
    expect(a.artifacts).toEqual([]);
  });

  it("reads a shell script the solution writes with a heredoc: its files are the step's too", async () => {
    const script = `SCRIPT=/usr/local/bin/nightly\ncat > "$SCRIPT" <<'EOS'\n#!/bin/sh\nset -eu\ndate > /var/log/app/nightly.heartbeat\nEOS\nchmod 755 "$SCRIPT"\n`;
    const a = await analyseShell(script);
    expect(a.artifacts.map((x) => `${x.line} ${x.path}`)).toEqual(["2 /usr/local/bin/nightly", "5 /var/log/app/nightly.heartbeat"]);
  });
});
