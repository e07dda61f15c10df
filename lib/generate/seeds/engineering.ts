// Software-engineering seeds: fix and build a C project, fix a Python package.
// Each section of a seed's solution has a few equivalent implementations, chosen per seed, so
// two seeds of one template read like the work of different engineers.
import { sh } from "../operators/common";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

/** Joins script sections: a section that opens with a comment gets a blank line before it. */
function joinSections(sections: readonly string[]): string {
  const out: string[] = [];
  for (const s of sections) {
    if (s.trim() === "") continue;
    if (out.length > 0 && s.startsWith("#")) out.push("");
    out.push(s);
  }
  return out.join("\n");
}

export const cBuildFix: SeedTemplate = {
  id: "c-build-fix",
  category: "software-engineering",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const srcDir = `${p.root}/src`;
    const buildDir = `${p.root}/build`;
    const bin = `${buildDir}/${p.app}-stats`;
    const numbers = `${p.dataDir}/numbers.txt`;
    const infoPath = `${p.reportDir}/build_info.txt`;
    const values = Array.from({ length: rng.int(8, 16) }, () => rng.int(1, 500));
    const input = values.join("\n") + "\n";
    const sum = values.reduce((a, b) => a + b, 0);
    const result = `count=${values.length} sum=${sum} max=${Math.max(...values)}`;
    const buggyLine = "    while (fscanf(f, \"%ld\", &v) == 1) { sum += v; n++; if (v > max) max = v }";
    const cSource = [
      "#include <stdio.h>",
      "#include <stdlib.h>",
      "",
      "int main(int argc, char **argv) {",
      "    FILE *f = argc > 1 ? fopen(argv[1], \"r\") : stdin;",
      "    if (!f) { perror(argv[1]); return 1; }",
      "    long sum = 0, n = 0, max = 0, v;",
      buggyLine,
      "    printf(\"count=%ld sum=%ld max=%ld\\n\", n, sum, max);",
      "    return 0;",
      "}",
      "",
    ].join("\n");
    const makefile = ["CC ?= gcc", "CFLAGS ?= -O2 -Wall", "", "stats: stats.c", "\t$(CC) $(CFLAGS) -o stats stats.c", "", "clean:", "\trm -f stats", ""].join("\n");

    // Names and working style.
    const SRC = rng.pick(["SRC", "SRC_DIR", "SOURCE_DIR", "PROJECT"]);
    const OUT = rng.pick(["BUILD", "BUILD_DIR", "OUT_DIR", "DEST"]);
    const BIN = rng.pick(["BIN", "TARGET", "STATS_BIN", "EXE"]);
    const DATA = rng.pick(["NUMBERS", "INPUT", "DATA", "SAMPLE"]);
    const INFO = rng.pick(["INFO", "REPORT", "BUILD_INFO", "META"]);
    const got = rng.pick(["out", "actual", "result", "got"]);
    const want = rng.pick(["expected", "reference", "want", "ref"]);
    const mode = rng.pick(["cd", "pushd", "paths"] as const);
    const inSrc = mode !== "paths";
    const at = (name: string): string => (inSrc ? name : `"$${SRC}/${name}"`);
    const make = inSrc ? "make" : `make -C "$${SRC}"`;
    const infoVar = rng.chance(0.5);
    const info = infoVar ? `"$${INFO}"` : infoPath;
    const output: string[] = [];

    const head = rng.pick([
      "# The stats tool does not compile (missing semicolon); fix it, build, test, install.",
      "# stats.c fails to build: one statement lost its semicolon. Repair it, harden the flags, install, verify.",
      "# Plan: reproduce the compile error, patch it, build with fatal warnings, install a stripped copy, cross-check.",
    ]);

    const diagnose = rng.pick([
      () => {
        output.push(`2:${inSrc ? "stats.c" : `${srcDir}/stats.c`}:8:76: error: expected ';' before '}' token`);
        return sh`gcc -fsyntax-only ${at("stats.c")} 2>&1 | grep -n "error" || true`;
      },
      () => {
        output.push("stats.c:8:76: error: expected ';' before '}' token");
        return sh`
          # Reproduce the failure through the real build first.
          ${make} 2>&1 | grep -m1 'error:' || true`;
      },
      () => {
        output.push(`8:${buggyLine}`);
        return sh`
          # Confirm the source is broken and show the offending statement.
          if ! gcc -fsyntax-only ${at("stats.c")} 2> /dev/null; then
            grep -n 'max = v }' ${at("stats.c")}
          fi`;
      },
    ])();

    const patchText = rng.pick([
      () => sh`sed -i 's/if (v > max) max = v }/if (v > max) max = v; }/' ${at("stats.c")}`,
      () => sh`sed -i -E 's/(max = v) \\}/\\1; }/' ${at("stats.c")}`,
      () => sh`perl -pi -e 's/max = v \\}/max = v; }/' ${at("stats.c")}`,
      () => sh`
        patch ${inSrc ? "" : `-d "$${SRC}" `}-p1 <<'PATCH'
        --- a/stats.c
        +++ b/stats.c
        @@ -7,3 +7,3 @@
             long sum = 0, n = 0, max = 0, v;
        -    while (fscanf(f, "%ld", &v) == 1) { sum += v; n++; if (v > max) max = v }
        +    while (fscanf(f, "%ld", &v) == 1) { sum += v; n++; if (v > max) max = v; }
             printf("count=%ld sum=%ld max=%ld\\n", n, sum, max);
        PATCH`,
    ])();
    const patchCheck = rng.pick([
      sh`gcc -fsyntax-only -Wall ${at("stats.c")}`,
      sh`grep -q 'max = v; }' ${at("stats.c")} || { echo "stats.c was not patched" >&2; exit 1; }`,
      sh`gcc -Wall -Wextra -Werror -fsyntax-only ${at("stats.c")}`,
    ]);
    const fix = [patchText, patchCheck].join("\n");

    const mf = at("Makefile");
    const strict = rng.pick([
      sh`
        # Strict warnings from now on, so the next regression fails the build.
        sed -i 's/^CFLAGS ?= -O2 -Wall$/CFLAGS ?= -O2 -Wall -Wextra -Werror/' ${mf}
        if ! grep -q -- '-Werror' ${mf}; then
          echo "Makefile was not updated" >&2
          exit 1
        fi`,
      sh`
        # Make warnings fatal; append the flags only once so a rerun is harmless.
        grep -q -- '-Werror' ${mf} || sed -i -E '/^CFLAGS/s/$/ -Wextra -Werror/' ${mf}
        grep -n '^CFLAGS' ${mf}`,
      sh`
        # -Wextra -Werror go into the Makefile itself, not just onto this command line.
        perl -pi -e 's/^(CFLAGS \\?= .*-Wall)$/$1 -Wextra -Werror/' ${mf}
        ${make} -Bn stats | grep -F -- '-Wextra -Werror'`,
    ]);

    const build = rng.pick([
      sh`
        ${make} clean
        ${make}`,
      sh`${make} clean stats`,
      sh`
        rm -f ${at("stats")}
        ${make} CC=gcc`,
      sh`${make} -B stats`,
    ]);

    let usesOut = true;
    const install = rng.pick([
      () => sh`
        mkdir -p "$${OUT}"
        install -m 755 ${at("stats")} "$${BIN}"
        strip "$${BIN}"`,
      () => sh`
        install -d "$${OUT}"
        install -s -m 0755 ${at("stats")} "$${BIN}"`,
      () => {
        usesOut = false;
        return sh`
          install -D -m 755 ${at("stats")} "$${BIN}"
          strip --strip-all "$${BIN}"`;
      },
      () => sh`
        mkdir -p "$${OUT}"
        cp ${at("stats")} "$${BIN}"
        chmod 0755 "$${BIN}"
        strip -s "$${BIN}"`,
    ])();
    const strippedCheck = rng.chance(0.4)
      ? sh`
        case "$(file -b "$${BIN}")" in
          *", stripped"*) ;;
          *) echo "$${BIN} still carries symbols" >&2; exit 1 ;;
        esac`
      : "";

    const expected = rng.pick([
      () => sh`
        # Cross-check against an independent computation of count, sum and max.
        ${want}=$(awk '
          { n++; s += $1; if (n == 1 || $1 > m) m = $1 }
          END { printf "count=%d sum=%d max=%d", n, s, m }
        ' "$${DATA}")`,
      () => sh`
        # Reference values computed in plain bash, independent of the C code.
        n=0 total=0 top=0
        while read -r v; do
          [ -n "$v" ] || continue
          n=$((n + 1))
          total=$((total + v))
          if [ "$n" -eq 1 ] || [ "$v" -gt "$top" ]; then top=$v; fi
        done < "$${DATA}"
        ${want}="count=$n sum=$total max=$top"`,
      () => sh`
        # What the tool should print, from coreutils alone.
        n=$(grep -c . "$${DATA}")
        total=$(( $(paste -sd+ "$${DATA}") ))
        top=$(sort -n "$${DATA}" | tail -n 1)
        ${want}="count=$n sum=$total max=$top"`,
      () => sh`
        # Independent answer for the comparison below.
        ${want}=$(perl -lne '$n++; $s += $_; $m = $_ if $n == 1 || $_ > $m; END { print "count=$n sum=$s max=$m" }' "$${DATA}")`,
    ])();

    const compare = rng.pick([
      () => sh`
        ${got}=$("$${BIN}" "$${DATA}")
        if [ "$${got}" != "$${want}" ]; then
          echo "got '$${got}', expected '$${want}'" >&2
          exit 1
        fi`,
      () => sh`
        ${got}=$("$${BIN}" < "$${DATA}")
        [ "$${got}" = "$${want}" ] || { echo "mismatch: $${got} vs $${want}" >&2; exit 1; }`,
      () => {
        output.push(`output matches: ${result}`);
        return sh`
          ${got}=$("$${BIN}" "$${DATA}")
          case "$${got}" in
            "$${want}") echo "output matches: $${got}" ;;
            *) echo "unexpected output: $${got} (want $${want})" >&2; exit 1 ;;
          esac`;
      },
    ])();

    // build_info.txt: binary, compiler, sha256 and result lines, in the engineer's order.
    const compiler = rng.pick(["$(gcc -dumpfullversion)", "$(gcc -dumpversion)", "$(gcc --version | head -n 1)"]);
    const digestStyle = rng.pick(["inline", "awk", "read"] as const);
    const digestPre =
      digestStyle === "awk" ? sh`digest=$(sha256sum "$${BIN}" | awk '{print $1}')` : digestStyle === "read" ? sh`read -r digest _ < <(sha256sum "$${BIN}")` : "";
    const digest = digestStyle === "inline" ? `$(sha256sum "$${BIN}" | cut -d' ' -f1)` : "$digest";
    const fields = rng.shuffle([
      ["binary", `$${BIN}`],
      ["compiler", compiler],
      ["sha256", digest],
      ["result", `$${got}`],
    ] as const);
    const reportDirLine = rng.pick([`mkdir -p ${p.reportDir}`, `install -d -m 755 ${p.reportDir}`, infoVar ? `mkdir -p "$(dirname "$${INFO}")"` : `mkdir -p ${p.reportDir}`]);
    const writer = rng.pick([
      () => [`cat > ${info} <<EOF`, ...fields.map(([k, v]) => `${k}=${v}`), "EOF"].join("\n"),
      () => ["{", ...fields.map(([k, v]) => `  echo "${k}=${v}"`), `} > ${info}`].join("\n"),
      () => `printf '${fields.map(([k]) => `${k}=%s\\n`).join("")}' ${fields.map(([, v]) => `"${v}"`).join(" ")} > ${info}`,
      () => ["printf '%s\\n' \\", ...fields.map(([k, v]) => `  "${k}=${v}" \\`), `  > ${info}`].join("\n"),
    ])();
    const report = [
      rng.pick(["# Record what was built and what it printed.", "# Build metadata for the record.", ""]),
      reportDirLine,
      digestPre,
      writer,
    ]
      .filter((l) => l !== "")
      .join("\n");

    const leave = mode === "cd" ? "cd - > /dev/null" : mode === "pushd" ? "popd > /dev/null" : "";
    const epilogue = rng.pick([
      () => {
        output.push(`${bin}: ELF 64-bit LSB pie executable`, `built and verified ${bin}: ${result}`);
        return [`${make} clean`, `file "$${BIN}" | cut -d, -f1`, leave, `echo "built and verified $${BIN}: $${got}"`];
      },
      () => {
        output.push(`installed ${bin} (${result})`);
        return [`rm -f ${at("stats")}`, `ls -l "$${BIN}"`, leave, `echo "installed $${BIN} ($${got})"`];
      },
      () => {
        output.push("  Class:                             ELF64", `${bin} ok: ${result}`);
        return [`${make} clean > /dev/null`, `readelf -h "$${BIN}" | grep -E 'Class|Machine'`, leave, `printf '%s ok: %s\\n' "$${BIN}" "$${got}"`];
      },
      () => {
        output.push(`done: ${bin} -> ${result}`);
        return [`${make} clean`, `size "$${BIN}"`, leave, `echo "done: $${BIN} -> $${got}"`];
      },
    ])()
      .filter((l) => l !== "")
      .join("\n");

    const vars = rng
      .shuffle([`${SRC}=${srcDir}`, usesOut ? `${OUT}=${buildDir}` : "", `${BIN}=${bin}`, `${DATA}=${numbers}`, infoVar ? `${INFO}=${infoPath}` : ""])
      .filter((l) => l !== "")
      .join("\n");
    const enter =
      mode === "cd" ? `cd "$${SRC}"` : mode === "pushd" ? `pushd "$${SRC}" > /dev/null` : `[ -f "$${SRC}/Makefile" ] || { echo "no Makefile in $${SRC}" >&2; exit 1; }`;

    // The fix and the stricter flags are independent; the reference answer may come first.
    const repairs = rng.chance(0.5) ? [fix, strict] : [strict, fix];
    const expectEarly = rng.chance(0.4);
    const script = joinSections([
      [head, vars, enter].join("\n"),
      diagnose,
      ...repairs,
      expectEarly ? expected : "",
      [build, install, strippedCheck].filter((s) => s !== "").join("\n"),
      expectEarly ? "" : expected,
      compare,
      report,
      epilogue,
    ]);

    const title = rng.pick([`Fix and build the ${p.app} stats tool`, `Repair the ${p.app} stats build`, `Get the ${p.app} stats tool compiling again`]);
    const intro = rng.pick([
      () => [
        `The C program in \`${srcDir}/stats.c\` (built by \`${srcDir}/Makefile\`) fails to compile. Fix the bug without changing its behaviour, make the Makefile build with \`-Wall -Wextra -Werror\`, and install the stripped binary as \`${bin}\`.`,
        "",
        `Run it on \`${numbers}\` and record binary, compiler, sha256 and result lines in \`${infoPath}\`.`,
        "",
        "Keep the numbers file unchanged and do not alter the output format of the program.",
      ],
      () => [
        `\`${srcDir}/stats.c\` no longer compiles. Repair it so the program behaves exactly as intended, add \`-Wextra -Werror\` to the \`-Wall\` flags in \`${srcDir}/Makefile\`, and install a stripped build at \`${bin}\`.`,
        "",
        `Then run the tool on \`${numbers}\` and write \`${infoPath}\` with binary, compiler, sha256 and result lines.`,
        "",
        "The numbers file must stay as shipped, and the program's output format must not change.",
      ],
      () => [
        `A compile error in \`${srcDir}/stats.c\` breaks the stats tool. Fix it without changing what the program does, make \`${srcDir}/Makefile\` compile with \`-Wall -Wextra -Werror\`, and put the stripped binary at \`${bin}\`.`,
        "",
        `Record its result on \`${numbers}\` in \`${infoPath}\`: one line each for binary, compiler, sha256 and result.`,
        "",
        "Leave the numbers file and the program's output format as they are.",
      ],
    ])().join("\n");
    const infoNeedles = rng.chance(0.5) ? [`binary=${bin}`, "sha256=", "result=count="] : [`binary=${bin}`, "compiler=", "sha256=", `result=${result}`];

    return {
      title,
      intro,
      packages: ["build-essential", "file"],
      fixtures: [
        { src: "stats.c", dest: `${srcDir}/stats.c`, content: cSource },
        { src: "Makefile", dest: `${srcDir}/Makefile`, content: makefile },
        { src: "numbers.txt", dest: numbers, content: input },
      ],
      script,
      output,
      tests: [
        fixtureIntact(numbers, values.length),
        test("test_binary_output", "The installed tool reports count, sum and max.", 0, [new Part(bin).isFile().run([bin, numbers], result).build()]),
        test("test_source_fixed", "The fix is in the source and the build is strict.", 0, [
          new Part(`${srcDir}/stats.c`).isFile().contains("max = v; }").build(),
          new Part(`${srcDir}/Makefile`, "mk").isFile().contains("-Wextra -Werror").build(),
        ]),
        test("test_build_info", "Build metadata is recorded.", 0, [new Part(infoPath).isFile().contains(...infoNeedles).build()]),
      ],
      artifacts: [
        { path: bin, kind: "script" },
        { path: infoPath, kind: "config" },
      ],
      inputs: [{ path: numbers, kind: "file" }],
      tags: ["c", "make", "debugging"],
    };
  },
};

export const pythonBugfix: SeedTemplate = {
  id: "python-bugfix",
  category: "software-engineering",
  image: "python:3.12-slim",
  difficulty: "easy",
  profile: (p) => ({ dataDir: `${p.root}/pkg` }),
  build(rng, p) {
    const pkg = `${p.root}/pkg`;
    const modName = `${p.app}_utils`;
    const mod = `${pkg}/${modName}/pricing.py`;
    const logPath = `${p.reportDir}/unit_tests.txt`;
    const tablePath = `${p.reportDir}/discount_table.csv`;
    const rate = rng.pick([5, 8, 10, 15, 20]);
    const discounted = (cents: number): number => cents - Math.floor((cents * rate) / 100);
    const moduleText = [
      '"""Price helpers used by the checkout service."""',
      "",
      `DISCOUNT_PCT = ${rate}`,
      "",
      "",
      "def apply_discount(cents: int) -> int:",
      '    """Return the price after DISCOUNT_PCT percent off, rounded down to whole cents."""',
      "    return cents - cents * DISCOUNT_PCT // 10",
      "",
      "",
      "def total(items: list[tuple[int, int]]) -> int:",
      '    """Sum of unit price times quantity, in cents."""',
      "    return sum(price * qty for price, qty in items)",
      "",
    ].join("\n");
    const tests = [
      `from ${modName}.pricing import apply_discount, total`,
      "",
      "",
      "def test_discount():",
      `    assert apply_discount(1000) == ${discounted(1000)}`,
      "",
      "",
      "def test_total():",
      "    assert total([(250, 2), (100, 3)]) == 800",
      "",
    ].join("\n");

    // Names and working style.
    const PKG = rng.pick(["PKG", "PKG_DIR", "PROJECT", "PKG_ROOT"]);
    const MOD = rng.pick(["MOD", "TARGET", "PRICING", "MODULE"]);
    const LOG = rng.pick(["LOG", "TEST_LOG", "RESULTS", "PYTEST_OUT"]);
    const TABLE = rng.pick(["TABLE", "CSV", "DISCOUNTS", "TABLE_CSV"]);
    const rows = rng.pick(["rows", "n_rows", "count", "lines"]);
    const mode = rng.pick(["cd", "pushd", "paths"] as const);
    const inPkg = mode !== "paths";
    const testsDir = inPkg ? "tests" : `"$${PKG}/tests"`;
    const pytest = inPkg ? "python3 -m pytest" : `PYTHONPATH="$${PKG}" python3 -m pytest`;
    const logVar = rng.chance(0.5);
    const log = logVar ? `"$${LOG}"` : logPath;
    const tableVar = rng.chance(0.5);
    const table = tableVar ? `"$${TABLE}"` : tablePath;
    const output: string[] = [];

    const head = rng.pick([
      "# apply_discount divides by 10 instead of 100; fix it, prove it with the unit tests.",
      "# The discount is read as tenths, not percent (// 10). Patch the module, run pytest, tabulate prices.",
      "# Bug: DISCOUNT_PCT is divided by 10, so ten times the discount comes off. Fix and verify.",
    ]);

    const installPytest = rng.pick([
      sh`python3 -m pip install --quiet --root-user-action=ignore pytest==8.3.3`,
      sh`python3 -c 'import pytest' 2> /dev/null || pip install --no-cache-dir -q 'pytest==8.3.3'`,
      sh`
        if ! python3 -m pytest --version > /dev/null 2>&1; then
          python3 -m pip install --disable-pip-version-check -q pytest
        fi`,
    ]);

        const reproduceStyle = rng.int(0, 2);
    const reproduce = [
      () => {
        output.push(`FAILED tests/test_pricing.py::test_discount - assert ${1000 - 100 * rate} == ${discounted(1000)}`, "1 failed, 1 passed in 0.04s");
        return sh`
          # Reproduce the failure first.
          ${pytest} -q ${testsDir} 2>&1 | tail -n 3 || true`;
      },
      () => {
        output.push(`apply_discount(1000) = ${1000 - 100 * rate} before the fix`);
        return sh`
          # What the buggy code returns for a 10.00 price.
          before=$(PYTHONPATH="$${PKG}" python3 -c 'from ${modName}.pricing import apply_discount; print(apply_discount(1000))')
          echo "apply_discount(1000) = $before before the fix"`;
      },
      () => {
        output.push("8:    return cents - cents * DISCOUNT_PCT // 10");
        return sh`grep -n 'DISCOUNT_PCT // 10$' "$${MOD}"`;
      },
    ][reproduceStyle]!();

    const fix = rng.pick([
      () => sh`
        cp "$${MOD}" "$${MOD}.orig"
        sed -i 's|cents \\* DISCOUNT_PCT // 10$|cents * DISCOUNT_PCT // 100|' "$${MOD}"
        if ! grep -q 'DISCOUNT_PCT // 100$' "$${MOD}"; then
          mv "$${MOD}.orig" "$${MOD}"
          echo "fix did not apply to $${MOD}" >&2
          exit 1
        fi
        diff -u "$${MOD}.orig" "$${MOD}" || true
        rm -f "$${MOD}.orig"`,
      () => sh`
        # Keep a backup just long enough to show the change.
        sed -i.bak -E 's#(DISCOUNT_PCT // )10$#\\1100#' "$${MOD}"
        diff "$${MOD}.bak" "$${MOD}" || true
        rm -f "$${MOD}.bak"`,
      () => sh`
        # Patch exactly one occurrence, or fail loudly.
        orig=$(mktemp)
        cp "$${MOD}" "$orig"
        python3 - "$${MOD}" <<'PY'
        import pathlib
        import sys

        path = pathlib.Path(sys.argv[1])
        source = path.read_text()
        buggy = "cents * DISCOUNT_PCT // 10\\n"
        if source.count(buggy) != 1:
            sys.exit(f"expected exactly one buggy line in {path}")
        path.write_text(source.replace(buggy, "cents * DISCOUNT_PCT // 100\\n"))
        PY
        diff -u "$orig" "$${MOD}" || true
        rm -f "$orig"`,
      () => sh`
        perl -i.orig -pe 's{DISCOUNT_PCT // 10$}{DISCOUNT_PCT // 100}' "$${MOD}"
        if cmp -s "$${MOD}.orig" "$${MOD}"; then
          echo "the substitution changed nothing in $${MOD}" >&2
          exit 1
        fi
        rm "$${MOD}.orig"
        grep -c 'DISCOUNT_PCT // 100$' "$${MOD}"`,
    ])();

    const compileCheck = rng.pick([
      sh`python3 -m py_compile "$${MOD}"`,
      sh`python3 -c 'import ast, sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$${MOD}"`,
      sh`python3 -m compileall -q "$${PKG}/${modName}"`,
    ]);

    const reportDirLine = rng.pick([`mkdir -p ${p.reportDir}`, `install -d ${p.reportDir}`, logVar ? `mkdir -p "$(dirname "$${LOG}")"` : `mkdir -p ${p.reportDir}`]);
    const runTests = rng.pick([
      () => {
        output.push("2 passed in 0.02s");
        return sh`
          ${pytest} -q ${testsDir} > ${log} 2>&1 || status=$?
          status=\${status:-0}
          if [ "$status" -ne 0 ]; then
            cat ${log} >&2
            exit 1
          fi
          tail -n 1 ${log}`;
      },
      () => {
        output.push("2 passed in 0.02s");
        return sh`
          if ! ${pytest} -q ${testsDir} > ${log} 2>&1; then
            cat ${log} >&2
            exit 1
          fi
          tail -n 1 ${log}`;
      },
      () => {
        output.push("..                                                                       [100%]", "2 passed in 0.02s");
        return sh`
          # tee keeps the output on screen too; pipefail still catches a failure.
          ${pytest} -q ${testsDir} 2>&1 | tee ${log}
          grep -q '2 passed' ${log} || { echo "unexpected pytest summary" >&2; exit 1; }`;
      },
      () => {
        output.push("2 passed in 0.02s");
        return sh`
          set +e
          ${pytest} -q -p no:cacheprovider ${testsDir} > ${log} 2>&1
          rc=$?
          set -e
          if [ "$rc" -ne 0 ]; then
            echo "pytest failed with status $rc" >&2
            cat ${log} >&2
            exit "$rc"
          fi
          grep -E '[0-9]+ passed' ${log}`;
      },
    ])();

    const amounts = "100, 999, 1000, 2500, 10000";
    const makeTable = rng.pick([
      () => sh`
        python3 - <<'PY' > ${table}
        import sys
        sys.path.insert(0, "${pkg}")
        from ${modName}.pricing import apply_discount
        print("cents,discounted")
        for cents in (${amounts}):
            print(f"{cents},{apply_discount(cents)}")
        PY`,
      () => sh`
        python3 - <<'PY'
        import csv
        import sys

        sys.path.insert(0, "${pkg}")
        from ${modName}.pricing import apply_discount

        with open("${tablePath}", "w", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\\n")
            writer.writerow(["cents", "discounted"])
            for cents in (${amounts}):
                writer.writerow([cents, apply_discount(cents)])
        PY`,
      () => sh`
        echo "cents,discounted" > ${table}
        for cents in ${amounts.replace(/,/g, "")}; do
          price=$(PYTHONPATH="$${PKG}" python3 -c "from ${modName}.pricing import apply_discount; print(apply_discount($cents))")
          echo "$cents,$price" >> ${table}
        done`,
      () => sh`
        PYTHONPATH="$${PKG}" python3 -c '
        from ${modName}.pricing import apply_discount
        print("cents,discounted")
        for c in (${amounts}):
            print(f"{c},{apply_discount(c)}")
        ' > ${table}`,
    ])();
    const rowCheck = rng.pick([
      sh`
        ${rows}=$(tail -n +2 ${table} | wc -l)
        [ "$${rows}" -eq 5 ] || { echo "discount table incomplete" >&2; exit 1; }`,
      sh`
        ${rows}=$(grep -c '^[0-9][0-9]*,[0-9][0-9]*$' ${table})
        if [ "$${rows}" -ne 5 ]; then
          echo "expected 5 rows in ${tablePath}, found $${rows}" >&2
          exit 1
        fi`,
      sh`
        ${rows}=$(python3 -c 'import csv, sys; print(sum(1 for _ in csv.DictReader(open(sys.argv[1]))))' ${table})
        test "$${rows}" -eq 5`,
    ]);

    const inspect = rng.pick([
      sh`find "$${PKG}" -name '*.py' -type f | sort`,
      sh`ls -l "$${PKG}/${modName}" "$${PKG}/tests"`,
      sh`grep -rn --include='*.py' 'DISCOUNT_PCT' "$${PKG}"`,
      sh`sed -n '1,12p' "$${MOD}"`,
    ]);

    // Spot-check one row against the module's own rate, computed in the shell.
    const rateLine = rng.pick([
      sh`rate=$(sed -n 's/^DISCOUNT_PCT = \\([0-9]*\\)$/\\1/p' "$${MOD}")`,
      sh`rate=$(awk -F' = ' '$1 == "DISCOUNT_PCT" { print $2 }' "$${MOD}")`,
      sh`rate=$(grep -m1 '^DISCOUNT_PCT' "$${MOD}" | cut -d= -f2 | tr -d ' ')`,
    ]);
    const rowLine = rng.pick([
      sh`row=$(awk -F, '$1 == 1000 { print $2 }' ${table})`,
      sh`row=$(grep '^1000,' ${table} | cut -d, -f2)`,
      sh`row=$(sed -n 's/^1000,//p' ${table})`,
    ]);
    const spot = [
      rng.pick(["# Spot-check the 10.00 row against the module's own rate.", "# 1000 cents must come out at 1000 - 1000 * rate / 100.", ""]),
      ...rng.shuffle([rateLine, rowLine]),
      rng.pick([
        sh`[ "$row" -eq $((1000 - 1000 * rate / 100)) ] || { echo "1000 cents -> $row, rate $rate" >&2; exit 1; }`,
        sh`
          if [ "$row" != "$((1000 - rate * 10))" ]; then
            echo "discount table disagrees with DISCOUNT_PCT=$rate: $row" >&2
            exit 1
          fi`,
      ]),
    ]
      .filter((l) => l !== "")
      .join("\n");

    const leave = mode === "cd" ? "cd - > /dev/null" : mode === "pushd" ? "popd > /dev/null" : "";
    const epilogue = rng.pick([
      () => {
        output.push(`pricing fixed, 5 table rows written`);
        return [
          `grep -c '^def ' "$${MOD}"`,
          `find "$${PKG}" -name '__pycache__' -type d -prune -exec rm -rf {} +`,
          `wc -l "$${MOD}" ${inPkg ? "tests/*.py" : `"$${PKG}"/tests/*.py`}`,
          leave,
          `echo "pricing fixed, $${rows} table rows written"`,
        ];
      },
      () => {
        output.push(`fixed ${mod}; 5 rows in ${tablePath}`);
        return [
          "# Leave the package as shipped: no bytecode or pytest cache.",
          `find "$${PKG}" -name '*.pyc' -delete`,
          `rm -rf "$${PKG}/.pytest_cache"`,
          leave,
          `printf 'fixed %s; %d rows in %s\\n' "$${MOD}" "$${rows}" ${table}`,
        ];
      },
      () => {
        output.push("cents,discounted", `100,${discounted(100)}`, `999,${discounted(999)}`, `done: discount table has 5 rows`);
        return [
          `rm -rf "$${PKG}"/*/__pycache__ "$${PKG}/tests/__pycache__" "$${PKG}/.pytest_cache"`,
          `head -n 3 ${table}`,
          leave,
          `echo "done: discount table has $${rows} rows"`,
        ];
      },
    ])()
      .filter((l) => l !== "")
      .join("\n");

    const vars = rng
      .shuffle([`${PKG}=${pkg}`, `${MOD}=${mod}`, logVar ? `${LOG}=${logPath}` : "", tableVar ? `${TABLE}=${tablePath}` : ""])
      .filter((l) => l !== "")
      .join("\n");
    const enter = mode === "cd" ? `cd "$${PKG}"` : mode === "pushd" ? `pushd "$${PKG}" > /dev/null` : "";

    // pytest must be there before it reproduces the failure; otherwise it may come later.
    const installFirst = reproduceStyle === 0 || rng.chance(0.5);
    const script = joinSections([
      [head, vars, enter, inspect].filter((s) => s !== "").join("\n"),
      installFirst ? installPytest : "",
      reproduce,
      [fix, compileCheck].join("\n"),
      installFirst ? "" : installPytest,
      [reportDirLine, runTests].join("\n"),
      [makeTable, rowCheck].join("\n"),
      spot,
      epilogue,
    ]);

    const title = rng.pick([`Fix the ${p.app} discount calculation`, `Repair the ${p.app} pricing discount`, `Correct the ${p.app} checkout discount`]);
    const intro = rng.pick([
      () => [
        `\`apply_discount\` in \`${mod}\` takes ten times too much off. Fix it so DISCOUNT_PCT (${rate}) is applied as a percentage, rounding down. The tests under \`${pkg}/tests\` must pass; save pytest's output to \`${logPath}\`.`,
        "",
        `Also write \`${tablePath}\` (cents,discounted) for 100, 999, 1000, 2500 and 10000 cents.`,
        "",
        "Do not modify the tests: they describe the intended behaviour of the package.",
      ],
      () => [
        `The discount in \`${mod}\` is ten times too large: \`apply_discount\` should take DISCOUNT_PCT (${rate}) percent off and round down to whole cents. Make the tests in \`${pkg}/tests\` pass and keep pytest's output in \`${logPath}\`.`,
        "",
        `Then write \`${tablePath}\` with a cents,discounted header and rows for 100, 999, 1000, 2500 and 10000.`,
        "",
        "Leave the tests alone; they define the intended behaviour.",
      ],
      () => [
        `Customers get ten times the intended discount: \`apply_discount\` in \`${mod}\` mishandles DISCOUNT_PCT (${rate}). Fix it to apply a percentage, rounded down, so the tests under \`${pkg}/tests\` pass, and save pytest's output to \`${logPath}\`.`,
        "",
        `Also produce \`${tablePath}\` (columns cents,discounted) for 100, 999, 1000, 2500 and 10000 cents.`,
        "",
        "The tests are correct as written; do not edit them.",
      ],
    ])().join("\n");
    const extraRow = rng.pick([999, 2500, 10000]);

    return {
      title,
      intro,
      packages: [],
      fixtures: [
        { src: "pricing.py", dest: mod, content: moduleText },
        { src: "test_pricing.py", dest: `${pkg}/tests/test_pricing.py`, content: tests },
        { src: "__init__.py", dest: `${pkg}/${modName}/__init__.py`, content: "" },
        // Puts the package root on sys.path, so pytest finds the package from any working directory.
        { src: "pytest.ini", dest: `${pkg}/pytest.ini`, content: "[pytest]\npythonpath = .\n" },
      ],
      script,
      output,
      tests: [
        // The check counts every line, blank ones included.
        fixtureIntact(`${pkg}/tests/test_pricing.py`, tests.split("\n").length - 1),
        test("test_discount_fixed", "The discount is a percentage.", 0, [new Part(mod).isFile().contains("DISCOUNT_PCT // 100").build()]),
        test("test_unit_tests_pass", "pytest passes on the package.", 0, [
          new Part(logPath).isFile().contains("2 passed").run(["python3", "-m", "pytest", "-q", `${pkg}/tests`]).build(),
        ]),
        test("test_discount_table", "The table lists the five reference prices.", 0, [
          new Part(tablePath).isFile().csvHeader(["cents", "discounted"], 4).contains(`1000,${discounted(1000)}`, `${extraRow},${discounted(extraRow)}`).build(),
        ]),
      ],
      artifacts: [
        { path: logPath, kind: "file" },
        { path: tablePath, kind: "csv", columns: ["cents", "discounted"] },
      ],
      inputs: [{ path: mod, kind: "file" }],
      tags: ["python", "debugging", "testing"],
    };
  },
};
