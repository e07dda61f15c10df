// Software-engineering seed: fix a C program that fails to compile, build it warning-free and
// install it; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { joinGapBeforeComments } from "./compose";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

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
    const script = joinGapBeforeComments([
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
