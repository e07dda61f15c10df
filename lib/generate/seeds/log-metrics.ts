// Data-processing seed: per-minute metrics from an application log.
import { sh } from "../operators/common";
import { appLog } from "./data";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

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
    const script = sh`
      # Per-minute metrics and slow-request extraction from the application log.
      LOG=${log}
      OUT=${r}
      THRESHOLD_MS=${threshold}
      mkdir -p "$OUT"
      if [ ! -s "$LOG" ]; then
        echo "empty log: $LOG" >&2
        exit 1
      fi

      # minute,requests,errors,slow: one row per minute that saw traffic.
      echo "minute,requests,errors,slow" > "$OUT/per_minute.csv"
      awk -v t="$THRESHOLD_MS" '
        {
          minute = substr($1, 1, 16)
          requests[minute]++
          if ($2 == "ERROR") errors[minute]++
          split($NF, d, "=")
          if (d[2] + 0 > t) slow[minute]++
        }
        END {
          for (m in requests) printf "%s,%d,%d,%d\\n", m, requests[m], errors[m] + 0, slow[m] + 0
        }' "$LOG" \\
        | sort -t, -k1,1 >> "$OUT/per_minute.csv"

      # Slow requests, slowest first (the duration is the last field).
      awk -v t="$THRESHOLD_MS" '{ split($NF, d, "="); if (d[2] + 0 > t) print d[2] "\\t" $0 }' "$LOG" \\
        | sort -t$'\\t' -k1,1nr \\
        | cut -f2- > "$OUT/slow_requests.log"

      # Error share per component.
      awk '
        { n[$3]++; if ($2 == "ERROR") e[$3]++ }
        END { for (c in n) printf "%s %.1f\\n", c, 100 * e[c] / n[c] }
      ' "$LOG" | sort -k2,2nr -k1,1 > "$OUT/component_error_pct.txt"

      total=$(wc -l < "$LOG")
      errors=$(grep -c ' ERROR ' "$LOG" || true)
      slow=$(wc -l < "$OUT/slow_requests.log")
      first=$(head -n 1 "$LOG" | cut -d' ' -f1)
      last=$(tail -n 1 "$LOG" | cut -d' ' -f1)
      span=$(( $(date -u -d "$last" +%s) - $(date -u -d "$first" +%s) ))
      rows=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' "$OUT/per_minute.csv")
      if [ "$rows" -ne "$total" ]; then
        echo "per-minute rows cover $rows of $total lines" >&2
        exit 1
      fi
      cat > "$OUT/metrics_summary.json" <<EOF
      {
        "lines": $total,
        "errors": $errors,
        "slow": $slow,
        "from": "$first",
        "to": "$last",
        "span_seconds": $span
      }
      EOF
      python3 -m json.tool "$OUT/metrics_summary.json" > /dev/null
      head -n 3 "$OUT/component_error_pct.txt"
      echo "$total lines, $errors errors, $slow slow"`;
    return {
      title: `Turn the ${p.app} log into metrics`,
      intro: [
        `\`${log}\` is the ${p.app} application log (timestamp, level, component, message, duration_ms=N). Produce:`,
        "",
        `- \`${r}/per_minute.csv\` (\`minute,requests,errors,slow\`, slow meaning over ${threshold} ms)`,
        `- \`${r}/slow_requests.log\`: slow lines, slowest first`,
        `- \`${r}/component_error_pct.txt\`: "<component> <error %>"`,
        `- \`${r}/metrics_summary.json\` with lines, errors, slow, from and to`,
        "",
        "A minute is the first sixteen characters of the timestamp; leave the log file untouched.",
      ].join("\n"),
      packages: ["gawk", "python3"],
      fixtures: [{ src: "app.log", dest: log, content: text }],
      script,
      output: [`${n} lines, ${rng.int(2, 20)} errors, ${rng.int(1, 20)} slow`],
      tests: [
        fixtureIntact(log, n),
        test("test_per_minute_csv", "Per-minute rows cover every log line.", 0, [
          new Part(`${r}/per_minute.csv`).isFile().csvHeader(["minute", "requests", "errors", "slow"]).raw(
            [`assert sum(int(row[1]) for row in rows[1:]) == ${n}`],
            1,
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
        test("test_component_error_pct", "Error percentages per component.", 0, [new Part(`${r}/component_error_pct.txt`).isFile().matches("^[a-z-]+ [0-9]+\\.[0-9]$", "component line").build()]),
        test("test_metrics_summary", "The summary counts lines and errors.", 0, [new Part(`${r}/metrics_summary.json`).isFile().jsonKeys("lines", "errors", "slow", "from", "to").build()]),
      ],
      artifacts: [
        { path: `${r}/per_minute.csv`, kind: "csv", columns: ["minute", "requests", "errors", "slow"] },
        { path: `${r}/slow_requests.log`, kind: "log", format: "app" },
        { path: `${r}/component_error_pct.txt`, kind: "file" },
        { path: `${r}/metrics_summary.json`, kind: "json" },
      ],
      inputs: [{ path: log, kind: "log", format: "app" }],
      tags: ["logs", "metrics", "awk"],
    };
  },
};
