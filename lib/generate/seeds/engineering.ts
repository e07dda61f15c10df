// Software-engineering seeds: fix and build a C project, fix a Python package.
import { sh } from "../operators/common";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const cBuildFix: SeedTemplate = {
  id: "c-build-fix",
  category: "software-engineering",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const srcDir = `${p.root}/src`;
    const bin = `${p.root}/build/${p.app}-stats`;
    const values = Array.from({ length: rng.int(8, 16) }, () => rng.int(1, 500));
    const input = values.join("\n") + "\n";
    const sum = values.reduce((a, b) => a + b, 0);
    const cSource = [
      "#include <stdio.h>",
      "#include <stdlib.h>",
      "",
      "int main(int argc, char **argv) {",
      "    FILE *f = argc > 1 ? fopen(argv[1], \"r\") : stdin;",
      "    if (!f) { perror(argv[1]); return 1; }",
      "    long sum = 0, n = 0, max = 0, v;",
      "    while (fscanf(f, \"%ld\", &v) == 1) { sum += v; n++; if (v > max) max = v }",
      "    printf(\"count=%ld sum=%ld max=%ld\\n\", n, sum, max);",
      "    return 0;",
      "}",
      "",
    ].join("\n");
    const makefile = ["CC ?= gcc", "CFLAGS ?= -O2 -Wall", "", "stats: stats.c", "\t$(CC) $(CFLAGS) -o stats stats.c", "", "clean:", "\trm -f stats", ""].join("\n");
    const script = sh`
      # The stats tool does not compile (missing semicolon); fix it, build, test, install.
      SRC=${srcDir}
      BUILD=${p.root}/build
      BIN=${bin}
      NUMBERS=${p.dataDir}/numbers.txt
      cd "$SRC"
      gcc -fsyntax-only stats.c 2>&1 | grep -n "error" || true
      sed -i 's/if (v > max) max = v }/if (v > max) max = v; }/' stats.c
      gcc -fsyntax-only -Wall stats.c

      # Strict warnings from now on, so the next regression fails the build.
      sed -i 's/^CFLAGS ?= -O2 -Wall$/CFLAGS ?= -O2 -Wall -Wextra -Werror/' Makefile
      if ! grep -q -- '-Werror' Makefile; then
        echo "Makefile was not updated" >&2
        exit 1
      fi
      make clean
      make
      mkdir -p "$BUILD"
      install -m 755 stats "$BIN"
      strip "$BIN"

      # Cross-check against an independent computation of count, sum and max.
      out=$("$BIN" "$NUMBERS")
      expected=$(awk '
        { n++; s += $1; if (n == 1 || $1 > m) m = $1 }
        END { printf "count=%d sum=%d max=%d", n, s, m }
      ' "$NUMBERS")
      if [ "$out" != "$expected" ]; then
        echo "got '$out', expected '$expected'" >&2
        exit 1
      fi
      mkdir -p ${p.reportDir}
      cat > ${p.reportDir}/build_info.txt <<EOF
      binary=$BIN
      compiler=$(gcc -dumpfullversion)
      sha256=$(sha256sum "$BIN" | cut -d' ' -f1)
      result=$out
      EOF
      make clean
      file "$BIN" | cut -d, -f1
      cd - > /dev/null
      echo "built and verified $BIN: $out"`;
    return {
      title: `Fix and build the ${p.app} stats tool`,
      intro: [
        `The C program in \`${srcDir}/stats.c\` (built by \`${srcDir}/Makefile\`) fails to compile. Fix the bug without changing its behaviour, make the Makefile build with \`-Wall -Wextra -Werror\`, and install the stripped binary as \`${bin}\`.`,
        "",
        `Run it on \`${p.dataDir}/numbers.txt\` and record binary, compiler, sha256 and result lines in \`${p.reportDir}/build_info.txt\`.`,
        "",
        "Keep the numbers file unchanged and do not alter the output format of the program.",
      ].join("\n"),
      packages: ["build-essential", "file"],
      fixtures: [
        { src: "stats.c", dest: `${srcDir}/stats.c`, content: cSource },
        { src: "Makefile", dest: `${srcDir}/Makefile`, content: makefile },
        { src: "numbers.txt", dest: `${p.dataDir}/numbers.txt`, content: input },
      ],
      script,
      output: [`${srcDir}/stats.c:8:67: error: expected ';' before '}' token`, `count=${values.length} sum=${sum} max=${Math.max(...values)}`, `built and verified ${bin}`],
      tests: [
        fixtureIntact(`${p.dataDir}/numbers.txt`, values.length),
        test("test_binary_output", "The installed tool reports count, sum and max.", 0, [
          new Part(bin).isFile().run([bin, `${p.dataDir}/numbers.txt`], `count=${values.length} sum=${sum} max=${Math.max(...values)}`).build(),
        ]),
        test("test_source_fixed", "The fix is in the source and the build is strict.", 0, [
          new Part(`${srcDir}/stats.c`).isFile().contains("max = v; }").build(),
          new Part(`${srcDir}/Makefile`, "mk").isFile().contains("-Wextra -Werror").build(),
        ]),
        test("test_build_info", "Build metadata is recorded.", 0, [new Part(`${p.reportDir}/build_info.txt`).isFile().contains(`binary=${bin}`, "sha256=", "result=count=").build()]),
      ],
      artifacts: [
        { path: bin, kind: "script" },
        { path: `${p.reportDir}/build_info.txt`, kind: "config" },
      ],
      inputs: [{ path: `${p.dataDir}/numbers.txt`, kind: "file" }],
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
    const mod = `${pkg}/${p.app}_utils/pricing.py`;
    const rate = rng.pick([5, 8, 10, 15, 20]);
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
      `from ${p.app}_utils.pricing import apply_discount, total`,
      "",
      "",
      "def test_discount():",
      `    assert apply_discount(1000) == ${1000 - (1000 * rate) / 100}`,
      "",
      "",
      "def test_total():",
      "    assert total([(250, 2), (100, 3)]) == 800",
      "",
    ].join("\n");
    const script = sh`
      # apply_discount divides by 10 instead of 100; fix it, prove it with the unit tests.
      PKG=${pkg}
      MOD=${mod}
      cd "$PKG"
      # Reproduce the failure first.
      python3 -m unittest discover -s tests -p 'test_*.py' 2>&1 | tail -n 3 || true
      grep -n 'DISCOUNT_PCT // 10$' "$MOD"
      cp "$MOD" "$MOD.orig"
      sed -i 's|cents \\* DISCOUNT_PCT // 10$|cents * DISCOUNT_PCT // 100|' "$MOD"
      if ! grep -q 'DISCOUNT_PCT // 100$' "$MOD"; then
        mv "$MOD.orig" "$MOD"
        echo "fix did not apply to $MOD" >&2
        exit 1
      fi
      diff -u "$MOD.orig" "$MOD" || true
      rm -f "$MOD.orig"
      python3 -m py_compile "$MOD"
      python3 -m pip install --no-deps --quiet pytest==8.3.3 2>/dev/null || true
      mkdir -p ${p.reportDir}
      python3 -m pytest -q tests > ${p.reportDir}/unit_tests.txt 2>&1 || status=$?
      status=\${status:-0}
      if [ "$status" -ne 0 ]; then
        cat ${p.reportDir}/unit_tests.txt >&2
        exit 1
      fi
      tail -n 1 ${p.reportDir}/unit_tests.txt
      python3 - <<'PY' > ${p.reportDir}/discount_table.csv
      import sys
      sys.path.insert(0, "${pkg}")
      from ${p.app}_utils.pricing import apply_discount
      print("cents,discounted")
      for cents in (100, 999, 1000, 2500, 10000):
          print(f"{cents},{apply_discount(cents)}")
      PY
      rows=$(tail -n +2 ${p.reportDir}/discount_table.csv | wc -l)
      [ "$rows" -eq 5 ] || { echo "discount table incomplete" >&2; exit 1; }
      grep -c '^def ' "$MOD"
      find "$PKG" -name '__pycache__' -type d -prune -exec rm -rf {} +
      wc -l "$MOD" tests/*.py
      cd - > /dev/null
      echo "pricing fixed, $rows table rows written"`;
    return {
      title: `Fix the ${p.app} discount calculation`,
      intro: [
        `\`apply_discount\` in \`${mod}\` takes ten times too much off. Fix it so DISCOUNT_PCT (${rate}) is applied as a percentage, rounding down. The tests under \`${pkg}/tests\` must pass; save pytest's output to \`${p.reportDir}/unit_tests.txt\`.`,
        "",
        `Also write \`${p.reportDir}/discount_table.csv\` (cents,discounted) for 100, 999, 1000, 2500 and 10000 cents.`,
        "",
        "Do not modify the tests: they describe the intended behaviour of the package.",
      ].join("\n"),
      packages: [],
      fixtures: [
        { src: "pricing.py", dest: mod, content: moduleText },
        { src: "test_pricing.py", dest: `${pkg}/tests/test_pricing.py`, content: tests },
        { src: "__init__.py", dest: `${pkg}/${p.app}_utils/__init__.py`, content: "" },
      ],
      script,
      output: ["FAILED (failures=1)", `${mod}:8:    return cents - cents * DISCOUNT_PCT // 10`, "2 passed in 0.02s", "pricing fixed, 5 table rows written"],
      tests: [
        fixtureIntact(`${pkg}/tests/test_pricing.py`, lineCount(tests)),
        test("test_discount_fixed", "The discount is a percentage.", 0, [new Part(mod).isFile().contains("DISCOUNT_PCT // 100").build()]),
        test("test_unit_tests_pass", "pytest passes on the package.", 0, [
          new Part(`${p.reportDir}/unit_tests.txt`).isFile().contains("2 passed").run(["python3", "-m", "pytest", "-q", `${pkg}/tests`]).build(),
        ]),
        test("test_discount_table", "The table lists the five reference prices.", 0, [
          new Part(`${p.reportDir}/discount_table.csv`).isFile().csvHeader(["cents", "discounted"], 4).contains(`1000,${1000 - (1000 * rate) / 100}`).build(),
        ]),
      ],
      artifacts: [
        { path: `${p.reportDir}/unit_tests.txt`, kind: "file" },
        { path: `${p.reportDir}/discount_table.csv`, kind: "csv", columns: ["cents", "discounted"] },
      ],
      inputs: [{ path: mod, kind: "file" }],
      tags: ["python", "debugging", "testing"],
    };
  },
};
