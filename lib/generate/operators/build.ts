// Build operators: a small C tool with make/gcc, shell linting, python statistics.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { free, latest, opResult, sh } from "./common";

export const buildCTool: Operator = {
  id: "build-c-tool",
  theme: "build",
  applies: (c) => free(c, `/usr/local/bin/${c.profile.app}-linecount`),
  build(c) {
    const { app, root } = c.profile;
    const src = `${root}/tools/linecount`;
    const bin = `/usr/local/bin/${app}-linecount`;
    const input = latest(c, ["csv", "log", "file"])?.path ?? "/etc/passwd";
    const step = sh`
      # A tiny C helper is faster than awk on the big exports; built with make and installed.
      SRC=${src}
      mkdir -p "$SRC"
      cat > "$SRC/linecount.c" <<'EOF'
      #include <stdio.h>
      int main(int argc, char **argv) {
          if (argc != 2) { fprintf(stderr, "usage: %s FILE\\n", argv[0]); return 2; }
          FILE *f = fopen(argv[1], "r");
          if (!f) { perror(argv[1]); return 1; }
          long n = 0; int ch;
          while ((ch = fgetc(f)) != EOF) if (ch == '\\n') n++;
          fclose(f);
          printf("%ld\\n", n);
          return 0;
      }
      EOF
      printf 'CFLAGS ?= -O2 -Wall -Wextra -Werror\\nlinecount: linecount.c\\n\\t$(CC) $(CFLAGS) -o $@ $<\\n' > "$SRC/Makefile"
      make -C "$SRC" --no-print-directory
      strip "$SRC/linecount"
      file "$SRC/linecount" | grep -q 'ELF 64-bit'
      install -m 755 "$SRC/linecount" ${bin}
      got=$(${bin} ${input})
      want=$(wc -l < ${input})
      [ "$got" -eq "$want" ] || { echo "linecount says $got, wc says $want" >&2; exit 1; }
      ldd ${bin} | grep -c 'libc.so' || true
      gcc --version | head -n 1`;
    return opResult(this.id, {
      step,
      output: [`cc -O2 -Wall -Wextra -Werror -o linecount linecount.c`, "1", "gcc (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0"],
      primary: { path: bin, kind: "script" },
      secondary: { path: `${src}/Makefile`, kind: "file" },
      testName: "test_linecount_tool",
      testDoc: "The compiled helper counts lines like wc -l.",
      primaryPart: new Part(bin).isFile().raw(
        [
          `got = subprocess.run([str(p), ${JSON.stringify(input)}], capture_output=True, text=True).stdout.strip()`,
          `want = subprocess.run(["wc", "-l"], stdin=open(${JSON.stringify(input)}), capture_output=True, text=True).stdout.strip()`,
          `assert got == want`,
        ],
        1,
        [`FileNotFoundError: [Errno 2] No such file or directory: '${bin}'`],
      ).build(),
      secondaryPart: new Part(`${src}/Makefile`, "mk").isFile().contains("-Werror").raw([`assert Path(${JSON.stringify(`${src}/linecount.c`)}).is_file()`], 1, ["AssertionError"]).build(),
      need: `Build a C line counter from ${src}/linecount.c and install it as \`${bin}\`; on ${input} it must agree with wc -l.`,
      needSecondary: `Build it with a \`${src}/Makefile\` that uses -Wall -Wextra -Werror.`,
      label: "C helper",
      packages: ["build-essential", "file"],
    });
  },
};

export const lintShellScripts: Operator = {
  id: "lint-shell-scripts",
  theme: "build",
  applies: (c) => free(c, `${c.profile.reportDir}/shellcheck.json`),
  build(c) {
    const { root, reportDir, app } = c.profile;
    const out = `${reportDir}/shellcheck.json`;
    const helper = `${root}/bin/${app}-status`;
    const step = sh`
      # A status helper for operators, linted with shellcheck before it ships.
      HELPER=${helper}
      mkdir -p "$(dirname "$HELPER")" ${reportDir}
      cat > "$HELPER" <<'EOF'
      #!/usr/bin/env bash
      set -euo pipefail
      dir="\${1:-${reportDir}}"
      printf 'reports: %s\\n' "$(find "$dir" -maxdepth 1 -type f | wc -l)"
      printf 'newest: %s\\n' "$(ls -t "$dir" | head -n 1)"
      EOF
      chmod 755 "$HELPER"
      bash -n "$HELPER"
      shellcheck -f json "$HELPER" > ${out} || true
      issues=$(jq 'length' ${out})
      if [ "$issues" -ne 0 ]; then
        jq -r '.[] | "\\(.line): SC\\(.code) \\(.message)"' ${out} >&2
        exit 1
      fi
      "$HELPER" | tee /dev/stderr | grep -q '^reports: '
      shellcheck --version | sed -n 2p
      echo "$HELPER passes shellcheck"`;
    return opResult(this.id, {
      step,
      output: [`reports: ${c.rng.int(1, 9)}`, "version: 0.9.0", `${helper} passes shellcheck`],
      primary: { path: helper, kind: "script" },
      secondary: { path: out, kind: "json" },
      testName: "test_status_helper",
      testDoc: "The status helper runs and reports the number of reports.",
      primaryPart: new Part(helper).isFile().run([helper], "reports: ").build(),
      secondaryPart: new Part(out, "sc").isFile().raw([`assert json.loads(sc.read_text()) == []`], 1, ["AssertionError: assert [{'code': 2086, ...}] == []"]).build(),
      need: `Add an executable \`${helper}\` printing "reports: N" and "newest: NAME" for ${reportDir}.`,
      needSecondary: `Store its shellcheck JSON result (no findings) in \`${out}\`.`,
      label: "status helper",
      packages: ["shellcheck", "jq"],
    });
  },
};

export const pythonStats: Operator = {
  id: "python-stats",
  theme: "build",
  applies: (c) => latest(c, ["csv"]) !== null && free(c, `${c.profile.reportDir}/column-stats.json`),
  build(c) {
    const src = latest(c, ["csv"])?.path ?? `${c.profile.dataDir}/input.csv`;
    const out = `${c.profile.reportDir}/column-stats.json`;
    const step = sh`
      # Column profile (fill rate, distinct values, numeric range) to catch schema drift early.
      SRC=${src}
      OUT=${out}
      python3 - "$SRC" "$OUT" <<'PY'
      import csv, json, statistics, sys
      rows = list(csv.DictReader(open(sys.argv[1], newline="")))
      profile = {}
      for col in (rows[0].keys() if rows else []):
          values = [r[col] for r in rows if r[col] not in ("", None)]
          nums = []
          for v in values:
              try:
                  nums.append(float(v))
              except ValueError:
                  pass
          entry = {"filled": len(values), "distinct": len(set(values))}
          if nums and len(nums) == len(values):
              entry.update(min=min(nums), max=max(nums), median=statistics.median(nums))
          profile[col] = entry
      json.dump({"rows": len(rows), "columns": profile}, open(sys.argv[2], "w"), indent=2, sort_keys=True)
      PY
      json_pp < "$OUT" > /dev/null
      cols=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["columns"]))' "$OUT")
      [ "$cols" -gt 0 ] || { echo "no columns profiled" >&2; exit 1; }
      echo "profiled $cols columns of $SRC"`;
    return opResult(this.id, {
      step,
      output: [`profiled ${c.rng.int(2, 8)} columns of ${src}`],
      primary: { path: out, kind: "json" },
      testName: "test_column_profile",
      testDoc: "Every CSV column is profiled with fill and distinct counts.",
      primaryPart: new Part(out).isFile().jsonKeys("rows", "columns").raw(
        [
          `with open(${JSON.stringify(src)}, newline="") as fh:`,
          `    header = next(csv.reader(fh))`,
          `assert sorted(data["columns"]) == sorted(header)`,
        ],
        1,
        ["AssertionError: assert [] == ['id', ...]"],
      ).build(),
      need: `Profile each column of ${src} (filled, distinct, and min/max/median when numeric) as JSON in \`${out}\`.`,
      label: "column profile",
      packages: ["python3"],
    });
  },
};
