// Data-processing seed: per-minute metrics from an application log. Each section of a seed's
// solution has a few interchangeable implementations picked per seed (see compose.ts).
import { sh } from "../operators/common";
import { failStyle } from "./compose";
import { appLog } from "./data";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

/** printf's %.1f: round half to even on exact ties (6.25 → 6.2), as C does. */
function fixed1(x: number): string {
  const scaled = x * 10;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5) return ((floor % 2 === 0 ? floor : floor + 1) / 10).toFixed(1);
  return x.toFixed(1);
}

interface LogFacts {
  lines: string[];
  errors: number;
  slow: string[];
  first: string;
  last: string;
  minutes: [string, number, number, number][];
  components: { name: string; pct: string }[];
}

function logFacts(text: string, threshold: number): LogFacts {
  const lines = text.split("\n").filter((l) => l !== "");
  const ms = (l: string) => Number(l.slice(l.lastIndexOf("=") + 1));
  const minutes = new Map<string, [number, number, number]>();
  const comps = new Map<string, [number, number]>();
  for (const l of lines) {
    const [ts = "", level = "", comp = ""] = l.split(" ");
    const m = minutes.get(ts.slice(0, 16)) ?? [0, 0, 0];
    minutes.set(ts.slice(0, 16), [m[0] + 1, m[1] + (level === "ERROR" ? 1 : 0), m[2] + (ms(l) > threshold ? 1 : 0)]);
    const c = comps.get(comp) ?? [0, 0];
    comps.set(comp, [c[0] + 1, c[1] + (level === "ERROR" ? 1 : 0)]);
  }
  return {
    lines,
    errors: lines.filter((l) => l.split(" ")[1] === "ERROR").length,
    slow: lines.filter((l) => ms(l) > threshold).sort((a, b) => ms(b) - ms(a)),
    first: lines[0]?.split(" ")[0] ?? "",
    last: lines[lines.length - 1]?.split(" ")[0] ?? "",
    minutes: [...minutes].sort(([a], [b]) => a.localeCompare(b)).map(([m, [n, e, s]]) => [m, n, e, s]),
    components: [...comps].map(([name, [n, e]]) => ({ name, pct: fixed1((100 * e) / n), value: (100 * e) / n })).sort((a, b) => b.value - a.value || a.name.localeCompare(b.name)),
  };
}

export const logMetrics: SeedTemplate = {
  id: "log-metrics",
  category: "data-processing",
  image: "ubuntu:24.04",
  difficulty: "medium",
  profile: (p) => ({ dataDir: p.logDir }),
  build(rng, p) {
    const log = `${p.logDir}/app.log`;
    const n = rng.int(50, 110);
    const text = appLog(rng, n);
    const r = p.reportDir;
    const threshold = rng.pick([500, 1000, 1500]);
    const facts = logFacts(text, threshold);
    const v = rng.pick([
      { log: "LOG", out: "OUT", thr: "THRESHOLD_MS" },
      { log: "APP_LOG", out: "REPORTS", thr: "SLOW_MS" },
      { log: "LOGFILE", out: "DEST", thr: "LIMIT_MS" },
      { log: "log_file", out: "report_dir", thr: "slow_ms" },
    ]);
    const L = `"$${v.log}"`;
    const T = `"$${v.thr}"`;
    const at = (file: string): string => `"$${v.out}/${file}"`;
    const P = at("per_minute.csv");
    const S = at("slow_requests.log");
    const CP = at("component_error_pct.txt");
    const J = at("metrics_summary.json");
    const tools = new Set<string>(["awk"]);
    const fail = failStyle(rng);
    const sections: string[] = [];

    // Declarations, output directory, empty-log guard.
    const decl = rng.shuffle([`${v.log}=${log}`, `${v.out}=${r}`]);
    decl.splice(rng.int(1, 2), 0, `${v.thr}=${threshold}`);
    sections.push(
      [
        rng.pick([
          "# Per-minute metrics and slow-request extraction from the application log.",
          "# Turn the app log into per-minute counts, a slow-request list and error shares.",
          "# Log metrics: traffic per minute, requests over the threshold, errors by component.",
        ]),
        ...decl,
        ...(fail.helper === "" ? [] : [fail.helper]),
        rng.pick([`mkdir -p "$${v.out}"`, `install -d -m 755 "$${v.out}"`, `mkdir -p -- "$${v.out}"`]),
        rng.pick([fail.check(`[ -s ${L} ]`, `empty log: $${v.log}`, `[ ! -s ${L} ]`), fail.check(`test -s ${L}`, `$${v.log} is missing or empty`)]),
      ].join("\n"),
    );
    // Optionally, a fingerprint of the log to prove at the end that it was left alone.
    const guard = rng.pick([
      null,
      null,
      { take: `log_sum=$(sha256sum < ${L})`, now: `"$(sha256sum < ${L})"`, was: '"$log_sum"' },
      { take: `before=$(cksum < ${L})`, now: `"$(cksum < ${L})"`, was: '"$before"' },
      { take: `stamp=$(stat -c '%s %Y' ${L})`, now: `"$(stat -c '%s %Y' ${L})"`, was: '"$stamp"' },
    ]);
    if (guard) sections[sections.length - 1] += `\n${guard.take}`;

    // Per-minute rows and per-component error shares: awk programs, or one Python pass for both.
    const python = rng.chance(0.25);
    const byName = rng.chance(0.35);
    const pctSort = byName ? "sort -k1,1" : "sort -k2,2nr -k1,1";
    const aggregates: string[] = [];
    if (python) {
      tools.add("python3");
      aggregates.push(sh`
        # One pass in Python for the per-minute table and the per-component error shares.
        python3 - ${T} <<'PY'
        import sys
        from collections import defaultdict

        threshold = int(sys.argv[1])
        minutes = defaultdict(lambda: [0, 0, 0])
        components = defaultdict(lambda: [0, 0])
        with open("${log}") as fh:
            for line in fh:
                stamp, level, component = line.split()[:3]
                duration = int(line.rsplit("=", 1)[1])
                row = minutes[stamp[:16]]
                row[0] += 1
                row[1] += level == "ERROR"
                row[2] += duration > threshold
                seen = components[component]
                seen[0] += 1
                seen[1] += level == "ERROR"

        with open("${r}/per_minute.csv", "w") as out:
            out.write("minute,requests,errors,slow\\n")
            for minute in sorted(minutes):
                out.write("{},{},{},{}\\n".format(minute, *minutes[minute]))

        shares = {name: 100 * errors / total for name, (total, errors) in components.items()}
        with open("${r}/component_error_pct.txt", "w") as out:
            for name in sorted(shares${byName ? "" : ", key=lambda c: (-shares[c], c)"}):
                out.write(f"{name} {shares[name]:.1f}\\n")
        PY`);
    } else {
      aggregates.push(
        rng.pick([
          sh`
            # minute,requests,errors,slow: one row per minute that saw traffic.
            echo "minute,requests,errors,slow" > ${P}
            awk -v t=${T} '
              {
                minute = substr($1, 1, 16)
                requests[minute]++
                if ($2 == "ERROR") errors[minute]++
                split($NF, d, "=")
                if (d[2] + 0 > t) slow[minute]++
              }
              END {
                for (m in requests) printf "%s,%d,%d,%d\\n", m, requests[m], errors[m] + 0, slow[m] + 0
              }' ${L} \\
              | sort -t, -k1,1 >> ${P}`,
          sh`
            # gawk walks the minutes in key order itself, so the CSV needs no sort.
            gawk -v t=${T} '
              BEGIN { PROCINFO["sorted_in"] = "@ind_str_asc"; print "minute,requests,errors,slow" }
              {
                m = substr($1, 1, 16)
                req[m]++
                err[m] += ($2 == "ERROR")
                ms = $NF
                sub(/^duration_ms=/, "", ms)
                late[m] += (ms + 0 > t)
              }
              END { for (m in req) printf "%s,%d,%d,%d\\n", m, req[m], err[m], late[m] }
            ' ${L} > ${P}`,
          sh`
            # Sort by timestamp, then flush each minute's row as soon as the next minute starts.
            sort -k1,1 ${L} | awk -v t=${T} '
              function flush() {
                if (cur != "") printf "%s,%d,%d,%d\\n", cur, n, e, s
              }
              BEGIN { print "minute,requests,errors,slow" }
              substr($1, 1, 16) != cur { flush(); cur = substr($1, 1, 16); n = e = s = 0 }
              {
                n++
                if ($2 == "ERROR") e++
                split($NF, kv, "=")
                if (kv[2] + 0 > t) s++
              }
              END { flush() }
            ' > ${P}`,
        ]),
        rng.pick([
          sh`
            # Error share per component.
            awk '
              { n[$3]++; if ($2 == "ERROR") e[$3]++ }
              END { for (c in n) printf "%s %.1f\\n", c, 100 * e[c] / n[c] }
            ' ${L} | ${pctSort} > ${CP}`,
          sh`
            # Error percentage per component from level/component pair counts.
            cut -d' ' -f2,3 ${L} | sort | uniq -c | awk '
              { total[$3] += $1 }
              $2 == "ERROR" { errors[$3] += $1 }
              END { for (c in total) printf "%s %.1f\\n", c, 100 * errors[c] / total[c] }
            ' | ${pctSort} > ${CP}`,
          sh`
            # One awk run per component keeps each share easy to check by hand.
            for component in $(awk '{ print $3 }' ${L} | sort -u); do
              awk -v c="$component" '$3 == c { n++; e += ($2 == "ERROR") } END { printf "%s %.1f\\n", c, 100 * e / n }' ${L}
            done | ${pctSort} > ${CP}`,
        ]),
      );
    }
    const slowSection = rng.pick([
      sh`
        # Slow requests, slowest first (the duration is the last field).
        awk -v t=${T} '{ split($NF, d, "="); if (d[2] + 0 > t) print d[2] "\\t" $0 }' ${L} \\
          | sort -t$'\\t' -k1,1nr \\
          | cut -f2- > ${S}`,
      sh`
        # Pull the duration to the front, keep the slow ones, sort, drop the key again.
        sed -n 's/.*duration_ms=\\([0-9][0-9]*\\)$/\\1 &/p' ${L} \\
          | awk -v t=${T} '$1 > t' \\
          | sort -k1,1nr \\
          | cut -d' ' -f2- > ${S}`,
      sh`
        # Requests over the threshold, slowest first.
        while IFS= read -r line; do
          ms=\${line##*=}
          if (( ms > ${v.thr} )); then
            printf '%s\\t%s\\n' "$ms" "$line"
          fi
        done < ${L} | sort -t$'\\t' -k1,1nr | cut -f2- > ${S}`,
    ]);
    if (python) sections.push(...rng.shuffle([aggregates.join("\n"), slowSection]));
    else sections.push(...rng.shuffle([...aggregates, slowSection]));

    // Summary figures.
    const total = rng.pick([`total=$(wc -l < ${L})`, `total=$(awk 'END { print NR }' ${L})`, `total=$(grep -c '' ${L})`]);
    const errors = rng.pick([
      `errors=$(grep -c ' ERROR ' ${L} || true)`,
      `errors=$(awk '$2 == "ERROR"' ${L} | wc -l)`,
      `errors=$(awk -F, 'NR > 1 { s += $3 } END { print s + 0 }' ${P})`,
    ]);
    const slow = rng.pick([`slow=$(wc -l < ${S})`, `slow=$(grep -c . ${S} || true)`]);
    const span = rng.pick([
      [`first=$(head -n 1 ${L} | cut -d' ' -f1)`, `last=$(tail -n 1 ${L} | cut -d' ' -f1)`],
      [`read -r first _ < ${L}`, `last=$(tail -n 1 ${L} | cut -d' ' -f1)`],
      [`first=$(awk 'NR == 1 { print $1; exit }' ${L})`, `last=$(awk 'END { print $1 }' ${L})`],
    ]);
    const withSpan = rng.chance(0.45);
    const figures = [total, errors, slow, ...span];
    if (withSpan) figures.push(`span=$(( $(date -u -d "$last" +%s) - $(date -u -d "$first" +%s) ))`);
    const coverage = rng.pick([
      [`rows=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' ${P})`, fail.check(`[ "$rows" -eq "$total" ]`, "per-minute rows cover $rows of $total lines", `[ "$rows" -ne "$total" ]`)].join("\n"),
      [`counted=$(( $(tail -n +2 ${P} | cut -d, -f2 | paste -sd+ -) ))`, fail.check("(( counted == total ))", "per_minute.csv accounts for $counted of $total requests", "(( counted != total ))")].join("\n"),
      "",
    ]);

    const fields = ["lines", "errors", "slow", "from", "to", ...(withSpan ? ["span_seconds"] : [])];
    const shellVals: Record<string, string> = { lines: "$total", errors: "$errors", slow: "$slow", from: "$first", to: "$last", span_seconds: "$span" };
    const quoted = (f: string) => f === "from" || f === "to";
    const writer = rng.pick(["heredoc", "printf", "python", "jq"] as const);
    let write = "";
    if (writer === "heredoc") {
      write = [`cat > ${J} <<EOF`, "{", ...fields.map((f, i) => `  "${f}": ${quoted(f) ? `"${shellVals[f]}"` : shellVals[f]}${i < fields.length - 1 ? "," : ""}`), "}", "EOF"].join("\n");
    } else if (writer === "printf") {
      const fmt = fields.map((f) => `"${f}": ${quoted(f) ? '"%s"' : "%d"}`).join(", ");
      write = `printf '{${fmt}}\\n' ${fields.map((f) => `"${shellVals[f]}"`).join(" ")} > ${J}`;
    } else if (writer === "python") {
      tools.add("python3");
      write = [
        `python3 - ${fields.map((f) => `"${shellVals[f]}"`).join(" ")} <<'PY'`,
        "import json",
        "import sys",
        "",
        `keys = ${JSON.stringify(fields).replace(/,/g, ", ")}`,
        "values = sys.argv[1:]",
        "summary = {k: (v if k in (\"from\", \"to\") else int(v)) for k, v in zip(keys, values)}",
        `with open("${r}/metrics_summary.json", "w") as fh:`,
        "    json.dump(summary, fh, indent=2)",
        '    fh.write("\\n")',
        "PY",
      ].join("\n");
    } else {
      tools.add("jq");
      const args = fields.map((f) => (quoted(f) ? `--arg ${f} "${shellVals[f]}"` : `--argjson ${f} "${shellVals[f]}"`));
      write = [
        `jq -n ${args.slice(0, 3).join(" ")} \\`,
        `  ${args.slice(3).join(" ")} \\`,
        `  '{${fields.map((f) => `${f}: $${f}`).join(", ")}}' > ${J}`,
      ].join("\n");
    }
    const validate =
      writer === "python"
        ? ""
        : rng.pick([`python3 -m json.tool ${J} > /dev/null`, `python3 -c 'import json, sys; json.load(open(sys.argv[1]))' ${J}`, ...(writer === "jq" ? [`jq empty ${J}`] : [])]);
    if (validate.startsWith("python3")) tools.add("python3");
    sections.push([...figures, coverage, write, validate].filter((x) => x !== "").join("\n"));

    // What the run prints.
    const output: string[] = [];
    const show = rng.pick(["pct", "pct", "minutes", "slowest"] as const);
    let display = "";
    if (show === "pct") {
      display = `head -n 3 ${CP}`;
      const comps = byName ? [...facts.components].sort((a, b) => a.name.localeCompare(b.name)) : facts.components;
      output.push(...comps.slice(0, 3).map((c) => `${c.name} ${c.pct}`));
    } else if (show === "minutes") {
      display = `column -s, -t ${P} | tail -n 3`;
      tools.add("column");
      const cols = [["minute", "requests", "errors", "slow"], ...facts.minutes.map((m) => m.map(String))];
      const widths = [0, 1, 2, 3].map((i) => Math.max(...cols.map((c) => (c[i] ?? "").length)));
      output.push(...cols.slice(-3).map((c) => c.map((x, i) => (i < 3 ? x.padEnd((widths[i] ?? 0) + 2) : x)).join("")));
    } else {
      display = `head -n 2 ${S}`;
      output.push(...facts.slow.slice(0, 2));
    }
    const closing = rng.pick([
      { text: `echo "$total lines, $errors errors, $slow slow"`, out: `${facts.lines.length} lines, ${facts.errors} errors, ${facts.slow.length} slow` },
      {
        text: `printf '%d lines, %d errors, %d over %d ms\\n' "$total" "$errors" "$slow" ${T}`,
        out: `${facts.lines.length} lines, ${facts.errors} errors, ${facts.slow.length} over ${threshold} ms`,
      },
      { text: `echo "metrics for $first .. $last in ${"$"}${v.out} ($slow slow of $total)"`, out: `metrics for ${facts.first} .. ${facts.last} in ${r} (${facts.slow.length} slow of ${facts.lines.length})` },
    ]);
    output.push(closing.out);
    const untouched = guard ? fail.check(`[ ${guard.now} = ${guard.was} ]`, `$${v.log} changed while it was being read`, `[ ${guard.now} != ${guard.was} ]`) : "";
    sections.push([untouched, display, closing.text].filter((x) => x !== "").join("\n"));
    const script = sections.join("\n\n");

    const strictSummary = rng.chance(0.4);
    const checkMinute = rng.chance(0.4);
    return {
      title: rng.pick([`Turn the ${p.app} log into metrics`, `Per-minute metrics from the ${p.app} log`, `Request metrics from the ${p.app} application log`]),
      intro: [
        rng.pick([
          `\`${log}\` is the ${p.app} application log (timestamp, level, component, message, duration_ms=N). Produce:`,
          `The ${p.app} service logs to \`${log}\`, one request per line (timestamp, level, component, message, duration_ms=N). Write:`,
          `From the ${p.app} application log \`${log}\` (timestamp, level, component, message, duration_ms=N), produce:`,
        ]),
        "",
        `- \`${r}/per_minute.csv\` (\`minute,requests,errors,slow\`, slow meaning over ${threshold} ms)`,
        `- \`${r}/slow_requests.log\`: slow lines, slowest first`,
        `- \`${r}/component_error_pct.txt\`: "<component> <error %>"`,
        `- \`${r}/metrics_summary.json\` with lines, errors, slow, from and to`,
        "",
        rng.pick([
          "A minute is the first sixteen characters of the timestamp; leave the log file untouched.",
          "Leave the log file untouched. A minute means the first sixteen characters of the timestamp.",
        ]),
      ].join("\n"),
      packages: ["gawk", ...(tools.has("python3") ? ["python3"] : []), ...(tools.has("jq") ? ["jq"] : []), ...(tools.has("column") ? ["bsdextrautils"] : [])],
      fixtures: [{ src: "app.log", dest: log, content: text }],
      script,
      output,
      tests: [
        fixtureIntact(log, n),
        test("test_per_minute_csv", "Per-minute rows cover every log line.", 0, [
          new Part(`${r}/per_minute.csv`).isFile().csvHeader(["minute", "requests", "errors", "slow"]).raw(
            [`assert sum(int(row[1]) for row in rows[1:]) == ${n}`, ...(checkMinute ? [`assert all(len(row[0]) == 16 for row in rows[1:])`] : [])],
            checkMinute ? 2 : 1,
            [`AssertionError: assert 0 == ${n}`],
          ).build(),
        ]),
        test("test_slow_requests", `Only requests over ${threshold} ms, slowest first.`, 0, [
          new Part(`${r}/slow_requests.log`).isFile().raw(
            [`ms = [int(l.rsplit("=", 1)[1]) for l in p.read_text().splitlines()]`, `assert all(m > ${threshold} for m in ms)`, `assert ms == sorted(ms, reverse=True)`],
            2,
            ["AssertionError: assert False"],
          ).build(),
        ]),
        test("test_component_error_pct", "Error percentages per component.", 0, [new Part(`${r}/component_error_pct.txt`).isFile().matches("^[a-z-]+ [0-9]+[.][0-9]$", "component line").build()]),
        test("test_metrics_summary", "The summary counts lines and errors.", 0, [
          strictSummary
            ? new Part(`${r}/metrics_summary.json`).isFile().jsonKeys("lines", "errors", "slow", "from", "to").raw([`assert data["lines"] == ${n}`], 1, [`AssertionError: assert 0 == ${n}`]).build()
            : new Part(`${r}/metrics_summary.json`).isFile().jsonKeys("lines", "errors", "slow", "from", "to").build(),
        ]),
      ],
      artifacts: [
        { path: `${r}/per_minute.csv`, kind: "csv", columns: ["minute", "requests", "errors", "slow"] },
        { path: `${r}/slow_requests.log`, kind: "log", format: "app" },
        { path: `${r}/component_error_pct.txt`, kind: "file" },
        { path: `${r}/metrics_summary.json`, kind: "json" },
      ],
      inputs: [{ path: log, kind: "log", format: "app" }],
      tags: ["logs", "metrics", python ? "python" : "awk"],
    };
  },
};
