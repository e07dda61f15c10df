// Software-engineering seed: fix a Python package's discount bug until its pytest suite passes;
// every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { joinGapBeforeComments } from "./compose";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

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
    const script = joinGapBeforeComments([
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
