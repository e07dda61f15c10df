// System-administration seeds: access-log triage and user provisioning.
// Real seed pools come from many authors, so each seed is written the way one of several authors
// would: every section of the solution has a few alternative implementations (tools, idioms,
// names, wording), picked per seed with the template's rng. Facts and checked paths stay fixed.
import { sh } from "../operators/common";
import type { Rng } from "../prng";
import { nginxLog, usersCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

type Piece = string | null | false;

/** Lines of one section, skipping the pieces a variant leaves out. */
const joinLines = (...parts: Piece[]): string => parts.filter((s): s is string => typeof s === "string" && s !== "").join("\n");
/** Sections of a script, a blank line apart. */
const joinSections = (...parts: Piece[]): string => parts.filter((s): s is string => typeof s === "string" && s !== "").join("\n\n");
/** Indents every non-empty line of `text` by `n` spaces (sections nested in a loop body). */
const indent = (text: string, n: number): string =>
  text
    .split("\n")
    .map((l) => (l === "" ? l : " ".repeat(n) + l))
    .join("\n");
/** Stands for a template line a variant leaves out; such lines are filtered away afterwards. */
const DROP = "\u0000drop\u0000";
/** One of `items`, or nothing with probability `1 - p`. */
const maybe = <T>(rng: Rng, p: number, items: readonly T[]): T | null => (rng.chance(p) ? rng.pick(items) : null);

// ---------------------------------------------------------------------------------------------
// nginx-log-triage

interface TriageFacts {
  total: number;
  errors: number;
  status: [string, number][];
  clients: [string, number][];
  busiest: string;
}

/** What the reports of `text` hold, for the printed output of the seed solution. */
function triageFacts(text: string): TriageFacts {
  const rows = text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split(" "));
  const ranked = (key: (f: string[]) => string): [string, number][] => {
    const m = new Map<string, number>();
    for (const f of rows) m.set(key(f), (m.get(key(f)) ?? 0) + 1);
    return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  };
  return {
    total: rows.length,
    errors: rows.filter((f) => Number(f[8]) >= 500).length,
    status: ranked((f) => f[8] ?? ""),
    clients: ranked((f) => f[0] ?? ""),
    busiest: ranked((f) => (f[3] ?? "").slice(13, 18))[0]?.[0] ?? "00:00",
  };
}

export const nginxLogTriage: SeedTemplate = {
  id: "nginx-log-triage",
  category: "system-administration",
  image: "ubuntu:24.04",
  difficulty: "easy",
  profile: () => ({ dataDir: "/var/log/nginx" }),
  build(rng, p) {
    const log = "/var/log/nginx/access.log";
    const lines = rng.int(40, 90);
    const text = nginxLog(rng, lines);
    const topN = rng.pick([3, 5, 10]);
    const r = p.reportDir;
    const facts = triageFacts(text);

    // Names this author uses for the inputs and for the numbers of the summary.
    const nm = rng.pick([
      { log: "LOG", out: "REPORTS", top: "TOP" },
      { log: "ACCESS_LOG", out: "OUT_DIR", top: "TOP_N" },
      { log: "log", out: "outdir", top: "top" },
      { log: "src", out: "dest", top: "limit" },
    ]);
    const vLog = `$${nm.log}`;
    const vOut = `$${nm.out}`;
    const vTop = `$${nm.top}`;
    // Some authors name every report up front; the rest spell the paths out where they write them.
    const reportNames: Record<string, [string, string]> = {
      "status_counts.txt": ["status_file", "STATUS_OUT"],
      "top_clients.txt": ["clients_file", "CLIENTS_OUT"],
      "server_errors.log": ["errors_file", "ERRORS_OUT"],
      "bytes_by_path.txt": ["bytes_file", "BYTES_OUT"],
      "summary.env": ["summary_file", "SUMMARY_OUT"],
    };
    const perFile = rng.pick([null, 0, 1] as const);
    const at = (name: string) => {
      const v = perFile === null ? undefined : reportNames[name]?.[perFile];
      return v ? `"$${v}"` : `"${vOut}/${name}"`;
    };
    const fileVars = perFile === null ? null : Object.entries(reportNames).map(([file, v]) => `${v[perFile]}="${vOut}/${file}"`).join("\n");
    const sv = rng.pick([
      { total: "total", errors: "errors", busiest: "busiest", rate: "rate" },
      { total: "requests", errors: "failures", busiest: "peak", rate: "pct" },
      { total: "n_total", errors: "n_5xx", busiest: "peak_minute", rate: "error_pct" },
    ]);

    // --- Preamble: names, the input check, the report directory.
    const heading = rng.pick([
      "# Triage the nginx access log into status, client, error and volume reports.",
      `# Break the ${p.app} access log down by status, client and path; keep the 5xx lines aside.`,
      "# Access-log triage: tallies per status code, client and path, then a short summary.",
      `# Reports for the ${p.app} traffic recorded in the nginx access log.`,
    ]);
    const assigns = rng.shuffle([`${nm.log}=${log}`, `${nm.out}=${r}`, `${nm.top}=${topN}`]).join("\n");
    const inputCheck = rng.pick([
      sh`
        if [ ! -s "${vLog}" ]; then
          echo "missing or empty ${vLog}" >&2
          exit 1
        fi`,
      sh`[ -r "${vLog}" ] || { echo "cannot read ${vLog}" >&2; exit 1; }`,
      sh`
        if [[ ! -f ${vLog} ]]; then
          printf 'no access log at %s\\n' "${vLog}" >&2
          exit 2
        fi`,
      sh`test -s "${vLog}" || { echo "error: ${vLog} is empty or missing" >&2; exit 1; }`,
    ]);
    const makeDir = rng.pick([`mkdir -p "${vOut}"`, `install -d -m 0755 "${vOut}"`, `mkdir -p -- "${vOut}"`]);
    // Some authors also make sure the file really is a combined-format access log.
    const formatCheck = maybe(rng, 0.7, [
      sh`
        # Refuse anything that is not a combined-format access log (set -e stops here).
        head -n 1 "${vLog}" | grep -Eq '^[0-9a-f.:]+ - [^ ]+ \\[[^]]+] "[A-Z]+ /'`,
      sh`
        if ! awk 'NF < 10 || $9 !~ /^[0-9][0-9][0-9]$/ { bad++ } END { exit bad > 0 }' "${vLog}"; then
          echo "unexpected lines in ${vLog}" >&2
          exit 1
        fi`,
    ]);
    const startNote = maybe(rng, 0.55, [`date -u +"%FT%TZ triaging ${vLog}" >&2`, `started=$(date +%s)`]);
    // head | grep also fails on a missing or empty log, so some authors skip the first check.
    const check = !formatCheck?.includes("head -n 1") || rng.chance(0.4) ? inputCheck : null;
    const preamble = joinLines(heading, assigns, fileVars, startNote, ...(rng.chance(0.5) ? [makeDir, check] : [check, makeDir]), formatCheck);

    // How this author starts the 5xx file: emptied, or created with its final mode.
    const freshErrors = rng.pick([`cp /dev/null ${at("server_errors.log")}`, `install -m 640 /dev/null ${at("server_errors.log")}`, `truncate -s 0 ${at("server_errors.log")}`]);

    // --- The four reports: one of four ways to tally the log.
    const sortDesc = "sort -k2,2nr -k1,1";
    const core = rng.pick([0, 1, 1, 2, 3]);
    const python = core === 2;
    let tallies: string;
    if (core === 0) {
      // One awk pass writing unsorted tallies, sorted afterwards.
      const arr = rng.pick([
        { s: "status", c: "client", b: "bytes" },
        { s: "by_code", c: "by_ip", b: "by_path" },
      ]);
      const scratch = rng.pick([null, "tally_dir", "scratch_dir"]);
      const trapped = rng.chance(0.5);
      const tmp = (name: string) => (scratch ? `"$${scratch}/${name}"` : at(`${name}.unsorted`));
      const errorsLog = at("server_errors.log");
      tallies = joinSections(
        joinLines(
          rng.pick([
            "# One pass over the log: per-status, per-client and per-path tallies, 5xx lines aside.",
            "# Single awk pass; the 5xx lines are copied verbatim as they go by.",
          ]),
          scratch && `${scratch}=$(mktemp -d)`,
          scratch && trapped && `trap 'rm -rf "$${scratch}"' EXIT`,
          freshErrors,
          sh`
            awk -v dir="${scratch ? `$${scratch}` : vOut}" -v errors=${errorsLog} '
              {
                ${arr.s}[$9]++
                ${arr.c}[$1]++
                ${arr.b}[$7] += $10
                if ($9 >= 500) print > errors
              }
              END {
                for (k in ${arr.s}) print k, ${arr.s}[k] > (dir "/${scratch ? "status" : "status.unsorted"}")
                for (k in ${arr.c}) print k, ${arr.c}[k] > (dir "/${scratch ? "clients" : "clients.unsorted"}")
                for (k in ${arr.b}) print k, ${arr.b}[k] > (dir "/${scratch ? "bytes" : "bytes.unsorted"}")
              }
            ' "${vLog}"`,
        ),
        joinLines(
          rng.pick(["# Busiest first; ties broken by key so reruns are byte-identical.", "# Highest count first, then by key, so a rerun gives the same bytes."]),
          `${sortDesc} ${tmp("status")} > ${at("status_counts.txt")}`,
          `${sortDesc} ${tmp("clients")} | head -n "${vTop}" > ${at("top_clients.txt")}`,
          `${sortDesc} ${tmp("bytes")} > ${at("bytes_by_path.txt")}`,
          scratch ? !trapped && `rm -rf "$${scratch}"` : `rm -f "${vOut}"/*.unsorted`,
        ),
      );
    } else if (core === 1) {
      // One small pipeline per report, in whatever order this author thought of them.
      const comment = rng.chance(0.6);
      const parts = [
        joinLines(
          comment && rng.pick(["# Requests per status code.", "# Status codes, busiest first."]),
          rng.pick([
            `cut -d' ' -f9 "${vLog}" | sort | uniq -c | awk '{ print $2, $1 }' | ${sortDesc} > ${at("status_counts.txt")}`,
            sh`
              awk '
                { hits[$9]++ }
                END { for (code in hits) print code, hits[code] }
              ' "${vLog}" | ${sortDesc} > ${at("status_counts.txt")}`,
          ]),
        ),
        joinLines(
          comment && rng.pick([`# The busiest ${vTop} clients.`, "# Top client addresses."]),
          rng.pick([
            `cut -d' ' -f1 "${vLog}" | sort | uniq -c | sort -k1,1nr -k2,2 | awk -v n="${vTop}" 'NR <= n { print $2, $1 }' > ${at("top_clients.txt")}`,
            sh`
              awk '
                { seen[$1]++ }
                END { for (ip in seen) print ip, seen[ip] }
              ' "${vLog}" | ${sortDesc} | awk -v n="${vTop}" 'NR <= n' > ${at("top_clients.txt")}`,
          ]),
        ),
        joinLines(
          comment && rng.pick(["# Bytes served per path.", "# Response volume by request path."]),
          rng.pick([
            sh`
              awk '
                { sent[$7] += $10 }
                END { for (path in sent) print path, sent[path] }
              ' "${vLog}" | ${sortDesc} > ${at("bytes_by_path.txt")}`,
            sh`
              awk '{ print $7, $10 }' "${vLog}" | sort -k1,1 | awk '
                $1 != prev { if (NR > 1) print prev, sum; prev = $1; sum = 0 }
                { sum += $2 }
                END { if (NR > 0) print prev, sum }
              ' > ${at("bytes_by_path.txt")}`,
          ]),
        ),
        joinLines(
          comment && rng.pick(["# 5xx lines, verbatim.", "# Server errors go to their own file."]),
          rng.pick([
            `awk '$9 >= 500' "${vLog}" > ${at("server_errors.log")}`,
            // grep exits 1 when a quiet day has no 5xx at all; only 2 is an error.
            `grep -E '" 5[0-9]{2} [0-9]+ ' "${vLog}" > ${at("server_errors.log")} || [ $? -eq 1 ]`,
          ]),
        ),
      ];
      tallies = joinSections(...rng.shuffle(parts));
    } else if (core === 2) {
      // Python does the counting; some authors leave the verbatim 5xx copy to grep or awk.
      const pyErrors = rng.chance(0.5);
      const py = sh`
        python3 - "${vLog}" "${vOut}" "${vTop}" <<'PY'
        import sys
        from collections import Counter
        from pathlib import Path

        log, out, top = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
        codes, clients, sent = Counter(), Counter(), Counter()
        ${pyErrors ? "errors = []" : DROP}
        for line in log.read_text().splitlines():
            fields = line.split()
            codes[fields[8]] += 1
            clients[fields[0]] += 1
            sent[fields[6]] += int(fields[9]) if fields[9].isdigit() else 0
            ${pyErrors ? "if int(fields[8]) >= 500:" : DROP}
                ${pyErrors ? 'errors.append(line + "\\n")' : DROP}


        def ranked(counter):
            return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))


        def write(name, rows):
            (out / name).write_text("".join(f"{key} {value}\\n" for key, value in rows))


        write("status_counts.txt", ranked(codes))
        write("top_clients.txt", ranked(clients)[:top])
        write("bytes_by_path.txt", ranked(sent))
        ${pyErrors ? '(out / "server_errors.log").write_text("".join(errors))' : DROP}
        PY`
        .split("\n")
        .filter((l) => !l.includes(DROP))
        .join("\n");
      tallies = pyErrors
        ? joinLines("# Tally everything in one Python pass; ties sort by key so reruns are byte-identical.", py)
        : joinLines(
            "# The 5xx lines verbatim, then the tallies in one Python pass (ties sort by key, so reruns match).",
            rng.pick([`awk '$9 >= 500' "${vLog}" > ${at("server_errors.log")}`, `grep -E '" 5[0-9]{2} [0-9]+ ' "${vLog}" > ${at("server_errors.log")} || [ $? -eq 1 ]`]),
            py,
          );
    } else {
      const dump = (arr: string, key: string) => sh`
        for ${key} in "\${!${arr}[@]}"; do
          printf '%s %d\\n' "$${key}" "\${${arr}[$${key}]}"
        done`;
      const tally = sh`
        hits_by_status[$code]=$(( \${hits_by_status[$code]:-0} + 1 ))
        hits_by_client[$client]=$(( \${hits_by_client[$client]:-0} + 1 ))
        bytes_by_path[$path]=$(( \${bytes_by_path[$path]:-0} + size ))`;
      const loop = rng.chance(0.5)
        ? joinLines(
            "# Plain bash: tally the fields in associative arrays while copying the 5xx lines.",
            "declare -A hits_by_status=() hits_by_client=() bytes_by_path=()",
            freshErrors,
            "while IFS= read -r line; do",
            '  read -r client _ _ _ _ _ path _ code size _ <<< "$line"',
            indent(tally, 2),
            `  if ${rng.pick(["(( code >= 500 ))", '[ "$code" -ge 500 ]'])}; then`,
            `    printf '%s\\n' "$line" >> ${at("server_errors.log")}`,
            "  fi",
            `done < "${vLog}"`,
          )
        : joinLines(
            "# The 5xx lines verbatim first, then per-field tallies in bash associative arrays.",
            rng.pick([`awk '$9 >= 500' "${vLog}" > ${at("server_errors.log")}`, `grep -E '" 5[0-9]{2} [0-9]+ ' "${vLog}" > ${at("server_errors.log")} || [ $? -eq 1 ]`]),
            "declare -A hits_by_status=() hits_by_client=() bytes_by_path=()",
            "while read -r client _ _ _ _ _ path _ code size _; do",
            indent(tally, 2),
            `done < "${vLog}"`,
          );
      tallies = joinSections(
        loop,
        joinLines(
          `${dump("hits_by_status", "code")} | ${sortDesc} > ${at("status_counts.txt")}`,
          `${dump("hits_by_client", "client")} | ${sortDesc} | head -n "${vTop}" > ${at("top_clients.txt")}`,
          `${dump("bytes_by_path", "path")} | ${sortDesc} > ${at("bytes_by_path.txt")}`,
        ),
      );
    }

    // --- Summary: the headline numbers, computed in one of a few ways, in any order.
    const total = rng.pick([`${sv.total}=$(wc -l < "${vLog}")`, `${sv.total}=$(grep -c '' "${vLog}")`, `${sv.total}=$(sed -n '$=' "${vLog}")`]);
    const errs = rng.pick([
      `${sv.errors}=$(wc -l < ${at("server_errors.log")})`,
      `${sv.errors}=$(awk 'END { print NR }' ${at("server_errors.log")})`,
      `${sv.errors}=$(cut -d' ' -f9 "${vLog}" | grep -c '^5' || true)`,
    ]);
    const busiest = rng.pick([
      sh`
        ${sv.busiest}=$(awk '
          { split($4, t, ":"); hits[t[2] ":" t[3]]++ }
          END { for (m in hits) if (hits[m] > best || (hits[m] == best && m < pick)) { best = hits[m]; pick = m }; print pick }
        ' "${vLog}")`,
      `${sv.busiest}=$(awk '{ m = substr($4, 14, 5); if (++n[m] > best) { best = n[m]; pick = m } } END { print pick }' "${vLog}")`,
      `${sv.busiest}=$(cut -d: -f2,3 "${vLog}" | sort | uniq -c | sort -k1,1nr -k2,2 | awk 'NR == 1 { print $2 }')`,
      `${sv.busiest}=$(sed -E 's/^[^[]*\\[[^:]*:([0-9]{2}:[0-9]{2}).*/\\1/' "${vLog}" | sort | uniq -c | sort -k1,1nr -k2,2 | sed -n '1s/^ *[0-9]* //p')`,
    ]);
    const intRate = rng.chance(0.35);
    const rate = intRate
      ? joinLines(
          `basis_points=$(( ${sv.total} > 0 ? ${sv.errors} * 10000 / ${sv.total} : 0 ))`,
          `printf -v ${sv.rate} '%d.%02d' $((basis_points / 100)) $((basis_points % 100))`,
        )
      : `${sv.rate}=$(awk -v e="$${sv.errors}" -v t="$${sv.total}" 'BEGIN { printf "%.2f", (t ? 100 * e / t : 0) }')`;
    const sumCheck = rng.pick([
      sh`
        sum=$(awk '{ s += $2 } END { print s + 0 }' ${at("status_counts.txt")})
        if [ "$sum" -ne "$${sv.total}" ]; then
          echo "status counts ($sum) do not add up to $${sv.total}" >&2
          exit 1
        fi`,
      sh`
        # Busiest first, as promised: sort -c fails on the first line out of order.
        sort -c -k2,2nr -k1,1 ${at("status_counts.txt")}`,
      `grep -Eq '^[0-9]{3} [0-9]+$' ${at("status_counts.txt")}`,
      sh`
        # The per-status counts must account for every request (set -e stops here if not).
        (( $(cut -d' ' -f2 ${at("status_counts.txt")} | paste -sd+ -) == ${sv.total} ))`,
      sh`
        # Every request must land in exactly one status bucket.
        [ "$(awk '{ s += $2 } END { print s }' ${at("status_counts.txt")})" -eq "$${sv.total}" ]`,
      null,
    ]);
    const keys: [string, string][] = [
      ["total_requests", sv.total],
      ["server_errors", sv.errors],
      ["error_rate_pct", sv.rate],
      ["busiest_minute", sv.busiest],
    ];
    const writeSummary = rng.pick([
      [`cat > ${at("summary.env")} <<EOF`, ...keys.map(([k, v]) => `${k}=$${v}`), "EOF"].join("\n"),
      [`printf '%s\\n' \\`, ...keys.map(([k, v]) => `  "${k}=$${v}" \\`), `  > ${at("summary.env")}`].join("\n"),
      [`tee ${at("summary.env")} <<EOF`, ...keys.map(([k, v]) => `${k}=$${v}`), "EOF"].join("\n"),
      sh`
        printf 'total_requests=%d\\nserver_errors=%d\\nerror_rate_pct=%s\\nbusiest_minute=%s\\n' \\
          "$${sv.total}" "$${sv.errors}" "$${sv.rate}" "$${sv.busiest}" > ${at("summary.env")}`,
      [`printf '%s=%s\\n' \\`, ...keys.map(([k, v]) => `  ${k} "$${v}" \\`), `  > ${at("summary.env")}`].join("\n"),
    ]);
    const counts = rng.shuffle([total, errs, busiest]);
    // The rate needs both counts; the busiest minute may come after it.
    const ordered = counts.indexOf(busiest) === 2 && rng.chance(0.5) ? [counts[0], counts[1], rate, busiest] : [...counts, rate];
    const summary = joinSections(
      joinLines(
        maybe(rng, 0.6, ["# Headline numbers for summary.env.", "# The summary: totals, error rate and the busiest minute.", "# Numbers for the summary file."]),
        ...(ordered as string[]),
      ),
      sumCheck,
      writeSummary,
    );

    // --- Modes and a look at the result.
    const adm = maybe(rng, 0.25, [`chgrp adm ${at("server_errors.log")}`, `chown root:adm ${at("server_errors.log")}`]);
    const modeCheck = maybe(rng, 0.35, [`[ "$(stat -c %a ${at("server_errors.log")})" = 640 ]`, `test "$(stat -c %a ${at("server_errors.log")})" -eq 640`]);
    const modes = joinLines(adm, rng.pick([
      joinLines(`chmod 644 "${vOut}"/*.txt ${at("summary.env")}`, `chmod 640 ${at("server_errors.log")}`),
      joinLines(`chmod 0640 ${at("server_errors.log")}`, `chmod 0644 ${["status_counts.txt", "top_clients.txt", "bytes_by_path.txt", "summary.env"].map(at).join(" ")}`),
      joinLines(`chmod u=rw,g=r,o= ${at("server_errors.log")}`, `chmod u=rw,go=r "${vOut}"/*.txt "${vOut}"/summary.env`),
      joinLines(`find "${vOut}" -maxdepth 1 -type f ! -name server_errors.log -exec chmod 644 {} +`, `chmod 640 ${at("server_errors.log")}`),
      joinLines(
        `for report in ${["status_counts.txt", "top_clients.txt", "bytes_by_path.txt", "summary.env"].map(at).join(" ")}; do`,
        `  chmod 644 "$report"`,
        "done",
        `chmod 640 ${at("server_errors.log")}`,
      ),
    ]));
    const pctText = (() => {
      if (!intRate) return facts.total ? ((100 * facts.errors) / facts.total).toFixed(2) : "0.00";
      const bp = facts.total ? Math.floor((facts.errors * 10000) / facts.total) : 0;
      return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, "0")}`;
    })();
    const statusBytes = facts.status.reduce((n, [k, v]) => n + `${k} ${v}\n`.length, 0);
    const [topIp, topHits] = facts.clients[0] ?? ["10.0.0.2", 1];
    const [topCode, topCodeHits] = facts.status[0] ?? ["200", facts.total];
    const elapsed = startNote?.startsWith("started=") ? " in $(( $(date +%s) - started ))s" : "";
    const show = rng.int(0, 3);
    const display = [
      joinLines(
        `column -t ${at("top_clients.txt")}`,
        `stat -c '%a %s %n' "${vOut}"/*`,
        `echo "triaged $${sv.total} requests ($${sv.errors} server errors, $${sv.rate}%)${elapsed}"`,
      ),
      joinLines(
        `ls -l "${vOut}"`,
        rng.chance(0.6) && "# Checksums, so a second run can be compared byte for byte.",
        `sha256sum "${vOut}"/*.txt`,
      ),
      joinLines(`head -n 3 ${at("status_counts.txt")}`, `wc -l "${vOut}"/*.txt`, `echo "done: $${sv.total} lines, $${sv.errors} 5xx, peak minute $${sv.busiest}${elapsed}"`),
      joinLines(`tail -n +1 ${at("top_clients.txt")} ${at("summary.env")}`, `du -sh "${vOut}"`, `echo "reports written to ${vOut}${elapsed}"`),
    ][show];
    const took = elapsed ? " in 0s" : "";
    const output = [
      [`${topIp.padEnd(Math.max(...facts.clients.slice(0, topN).map(([ip]) => ip.length)) + 2)}${topHits}`, `644 ${statusBytes} ${r}/status_counts.txt`, `triaged ${facts.total} requests (${facts.errors} server errors, ${pctText}%)${took}`],
      [`-rw-r--r-- 1 root root ${statusBytes} Mar 12 09:14 status_counts.txt`, `${rng.hex(64)}  ${r}/bytes_by_path.txt`],
      [`${topCode} ${topCodeHits}`, `  ${facts.status.length} ${r}/status_counts.txt`, `done: ${facts.total} lines, ${facts.errors} 5xx, peak minute ${facts.busiest}${took}`],
      [`==> ${r}/top_clients.txt <==`, `${topIp} ${topHits}`, `reports written to ${r}${took}`],
    ][show] ?? [];

    const script = joinSections(preamble, tallies, summary, joinLines(modes, modeCheck, display ?? null));

    // --- Instruction: same facts, one of a few phrasings.
    const strictMinute = rng.chance(0.5);
    const intro = rng.pick([
      `The nginx access log at \`${log}\` holds a day of traffic for the ${p.app} service. Produce these reports:`,
      `The ${p.app} service's nginx writes its requests to \`${log}\`. Summarise that day of traffic into these files:`,
      `A day of ${p.app} traffic sits in the nginx access log \`${log}\`. Triage it and write:`,
    ]);
    const bullets = [
      rng.pick([
        `- \`${r}/status_counts.txt\`: one \`<status> <count>\` line per status code, busiest first`,
        `- \`${r}/status_counts.txt\`: \`<status> <count>\` for every HTTP status code, highest count first`,
      ]),
      rng.pick([`- \`${r}/top_clients.txt\`: the ${topN} busiest client IPs as \`<ip> <count>\``, `- \`${r}/top_clients.txt\`: \`<ip> <count>\` for the ${topN} busiest client addresses, busiest first`]),
      rng.pick([`- \`${r}/server_errors.log\`: every 5xx request line, verbatim (mode 0640)`, `- \`${r}/server_errors.log\`: the 5xx request lines copied verbatim, mode 0640`]),
      rng.pick([`- \`${r}/bytes_by_path.txt\`: bytes served per request path`, `- \`${r}/bytes_by_path.txt\`: \`<path> <bytes>\`, the bytes served per request path`]),
      `- \`${r}/summary.env\`: ${rng.pick(["", "`key=value` lines for "])}total_requests, server_errors, error_rate_pct and busiest_minute${strictMinute ? " (as `HH:MM`)" : ""}`,
    ];
    const closing = rng.pick([
      ...(python ? [] : ["Use standard command-line tools only; rerunning the solution must produce byte-identical reports."]),
      "Running the solution twice must give byte-identical reports, so break ties deterministically.",
      "The reports must be deterministic: a second run reproduces them byte for byte.",
    ]);
    const summaryPart = new Part(`${r}/summary.env`).isFile().contains(`total_requests=${lineCount(text)}`, "server_errors=", "error_rate_pct=", "busiest_minute=");
    if (strictMinute) summaryPart.matches("^busiest_minute=[0-9]{2}:[0-9]{2}$", "HH:MM busiest minute");
    return {
      title: `Triage the ${p.app} access log`,
      intro: [intro, "", ...bullets, "", closing].join("\n"),
      packages: ["gawk", ...(python ? ["python3"] : []), ...(show === 0 ? ["bsdextrautils"] : [])],
      fixtures: [{ src: "access.log", dest: log, content: text }],
      script,
      output,
      tests: [
        fixtureIntact(log, lineCount(text)),
        test("test_status_counts", "Status counts are well-formed and add up to the request total.", 0, [
          new Part(`${r}/status_counts.txt`).isFile().matches("^[0-9]{3} [0-9]+$", "status line").raw(
            [`assert sum(int(l.split()[1]) for l in p.read_text().splitlines()) == ${lineCount(text)}`],
            1,
            [`AssertionError: assert 0 == ${lineCount(text)}`],
          ).build(),
        ]),
        test("test_top_clients", `At most ${topN} clients, busiest first.`, 0, [
          new Part(`${r}/top_clients.txt`).isFile().raw(
            [`counts = [int(l.split()[1]) for l in p.read_text().splitlines()]`, `assert 0 < len(counts) <= ${topN}`, `assert counts == sorted(counts, reverse=True)`],
            2,
            ["AssertionError: assert 0 < 0"],
          ).build(),
        ]),
        test("test_server_errors", "Only 5xx lines are copied and the file is private.", 0, [
          new Part(`${r}/server_errors.log`).isFile().mode(0o640).raw(
            [`assert all(int(l.split()[8]) >= 500 for l in p.read_text().splitlines())`],
            1,
            ["AssertionError: assert False"],
          ).build(),
        ]),
        test("test_bytes_by_path", "Bytes are summed per path.", 0, [new Part(`${r}/bytes_by_path.txt`).isFile().matches("^/[^ ]* [0-9]+$", "path line").build()]),
        test("test_summary_env", "The summary carries the headline numbers.", 0, [summaryPart.build()]),
      ],
      artifacts: [
        { path: `${r}/status_counts.txt`, kind: "file" },
        { path: `${r}/top_clients.txt`, kind: "file" },
        { path: `${r}/server_errors.log`, kind: "log", format: "nginx" },
        { path: `${r}/bytes_by_path.txt`, kind: "file" },
        { path: `${r}/summary.env`, kind: "config" },
      ],
      inputs: [{ path: log, kind: "log", format: "nginx" }],
      tags: ["logs", "awk", "nginx"],
    };
  },
};

// ---------------------------------------------------------------------------------------------
// user-provisioning

export const userProvisioning: SeedTemplate = {
  id: "user-provisioning",
  category: "system-administration",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const csvPath = `${p.dataDir}/users.csv`;
    const n = rng.int(5, 9);
    const text = usersCsv(rng, n);
    const r = p.reportDir;
    const rows = text
      .split("\n")
      .slice(1)
      .filter((l) => l !== "")
      .map((l) => l.split(","));
    const nologin = rows.filter((f) => f[3] === "/usr/sbin/nologin").map((f) => f[0] ?? "");
    const teams = [...new Set(rows.map((f) => f[2] ?? ""))].sort();

    // Names this author uses.
    const nm = rng.pick([
      { csv: "USERS", dir: "REPORT_DIR", tsv: "REPORT" },
      { csv: "CSV", dir: "OUT", tsv: "TSV" },
      { csv: "roster", dir: "outdir", tsv: "report" },
      { csv: "SRC", dir: "DEST", tsv: "SUMMARY" },
    ]);
    const vCsv = `"$${nm.csv}"`;
    const vDir = `$${nm.dir}`;
    const vTsv = `"$${nm.tsv}"`;
    const teamsTxt = `"${vDir}/teams.txt"`;
    const nologinTxt = `"${vDir}/nologin_users.txt"`;
    const col = rng.pick([
      { u: "username", name: "full_name", team: "team", shell: "shell" },
      { u: "login", name: "gecos", team: "team", shell: "login_shell" },
      { u: "user", name: "comment", team: "tm", shell: "user_shell" },
    ]);
    const U = `"$${col.u}"`;
    const S = `"$${col.shell}"`;
    const grp = `"team-$${col.team}"`;

    // --- Preamble.
    const heading = rng.pick([
      "# Provision the accounts listed in users.csv: one group per team, locked passwords.",
      "# Create the local accounts from the CSV roster. Idempotent: safe to run twice.",
      `# Account provisioning for ${p.app}: team groups, users with locked passwords, private ~/.ssh.`,
      null,
    ]);
    const assigns = joinLines(...rng.shuffle([`${nm.csv}=${csvPath}`, `${nm.dir}=${r}`]), `${nm.tsv}="${vDir}/provisioned.tsv"`);
    const guard = rng.pick([
      sh`
        if [ ! -r ${vCsv} ]; then
          echo "cannot read $${nm.csv}" >&2
          exit 1
        fi`,
      sh`[ -s ${vCsv} ] || { echo "no roster at $${nm.csv}" >&2; exit 1; }`,
      sh`test -f ${vCsv} || { printf 'missing %s\\n' ${vCsv} >&2; exit 1; }`,
    ]);
    const headerCheck = maybe(rng, 0.15, [
      sh`
        IFS= read -r header < ${vCsv}
        if [ "\${header%$'\\r'}" != "username,full_name,team,shell" ]; then
          echo "unexpected header: $header" >&2
          exit 1
        fi`,
      sh`
        # The columns this script relies on (set -e stops here on anything else).
        head -n 1 ${vCsv} | tr -d '\\r' | grep -qx 'username,full_name,team,shell'`,
    ]);
    const makeDir = rng.pick([`mkdir -p "${vDir}"`, `install -d -m 755 "${vDir}"`]);
    const preamble = joinLines(heading, assigns, makeDir, guard, headerCheck);

    // --- Groups: up front in one of three ways, or inside the user loop.
    const groupStyle = rng.int(0, 3);
    const groups = [
      sh`
        # Groups first, so every user can get its team as primary group.
        for team in $(tail -n +2 ${vCsv} | cut -d, -f3 | sort -u); do
          if ! getent group "team-$team" > /dev/null; then
            groupadd "team-$team"
          fi
        done`,
      sh`
        # One group per team; groupadd -f is a no-op when it already exists.
        while read -r group; do
          groupadd -f "$group"
        done < <(awk -F, 'NR > 1 { print "team-" $3 }' ${vCsv} | sort -u)`,
      sh`
        # The team groups, created before anyone needs them as a primary group.
        sed 1d ${vCsv} | cut -d, -f3 | sort -u | xargs -r -I{} groupadd -f "team-{}"`,
      null,
    ][groupStyle];

    // --- The report: rows written by the loop, or read back from the account database afterwards.
    const reportStyle = rng.pick([0, 0, 1, 2]);
    const header = `printf 'username\\tuid\\tteam\\thome\\tshell\\n'`;
    const nologinInLoop = rng.chance(0.25);

    // --- The loop body, from interchangeable pieces.
    const homeVar = rng.pick(["home", "home_dir"]);
    const H = `"$${homeVar}"`;
    const createStyle = rng.int(0, 3);
    const create = [
      sh`
        if ! id -u ${U} > /dev/null 2>&1; then
          useradd --create-home \\
            --shell ${S} \\
            --comment "$${col.name}" \\
            --gid ${grp} \\
            ${U}
        fi`,
      sh`
        if getent passwd ${U} > /dev/null; then
          usermod -s ${S} -g ${grp} -c "$${col.name}" ${U}
        else
          useradd -m -s ${S} -g ${grp} -c "$${col.name}" ${U}
        fi`,
      sh`id ${U} &> /dev/null || useradd -m -g ${grp} -s ${S} -c "$${col.name}" ${U}`,
      sh`
        # useradd leaves the password locked; usermod -L locks an account that already existed.
        if id ${U} > /dev/null 2>&1; then
          usermod -L -g ${grp} -s ${S} ${U}
        else
          useradd --create-home --gid ${grp} --shell ${S} --comment "$${col.name}" ${U}
        fi`,
    ][createStyle] ?? "";
    const inlineGroup = groupStyle === 3 ? rng.pick([`groupadd -f ${grp}`, `getent group ${grp} > /dev/null || groupadd ${grp}`]) : null;
    const lock = createStyle === 3 ? null : rng.pick([`passwd -l ${U} > /dev/null`, `usermod -L ${U}`, `passwd --lock ${U} > /dev/null`]);
    const home = rng.pick([`${homeVar}="/home/$${col.u}"`, `${homeVar}=/home/$${col.u}`, `${homeVar}=$(getent passwd ${U} | cut -d: -f6)`]);
    const homeMode = rng.pick([`chmod 750 ${H}`, `chmod 0750 ${H}`, `chmod u=rwx,g=rx,o= ${H}`, null]);
    const ssh = rng.pick([
      sh`
        install -d -m 700 -o ${U} -g ${grp} "$${homeVar}/.ssh"
        [ -f "$${homeVar}/.ssh/authorized_keys" ] || install -m 600 -o ${U} -g ${grp} /dev/null "$${homeVar}/.ssh/authorized_keys"`,
      sh`
        mkdir -p -m 700 "$${homeVar}/.ssh"
        touch "$${homeVar}/.ssh/authorized_keys"
        chmod 600 "$${homeVar}/.ssh/authorized_keys"
        chown -R "$${col.u}:team-$${col.team}" "$${homeVar}/.ssh"`,
      sh`
        keys="$${homeVar}/.ssh/authorized_keys"
        install -d -m 0700 -o ${U} -g ${grp} "\${keys%/*}"
        if [ ! -e "$keys" ]; then
          install -m 0600 -o ${U} -g ${grp} /dev/null "$keys"
        fi`,
    ]);
    const record =
      reportStyle === 0
        ? rng.pick([
            joinLines(`uid=$(id -u ${U})`, `printf '%s\\t%s\\t%s\\t%s\\t%s\\n' ${U} "$uid" "$${col.team}" ${H} ${S} >> ${vTsv}`),
            `printf '%s\\t%s\\t%s\\t%s\\t%s\\n' ${U} "$(id -u ${U})" "$${col.team}" ${H} ${S} >> ${vTsv}`,
          ])
        : null;
    const nologinLine = nologinInLoop
      ? sh`
          if [ ${S} = /usr/sbin/nologin ]; then
            echo ${U} >> ${nologinTxt}
          fi`
      : null;
    const body = joinLines(inlineGroup, create, ...rng.shuffle([lock, joinLines(home, homeMode, ssh)]), record, nologinLine);
    const fields = `${col.u} ${col.name} ${col.team} ${col.shell}`;
    const frame = rng.int(0, 2);
    const loop = [
      joinLines(`tail -n +2 ${vCsv} | tr -d '\\r' | while IFS=, read -r ${fields}; do`, indent(body, 2), "done"),
      joinLines(`while IFS=, read -r ${fields}; do`, indent(body, 2), `done < <(sed '1d; s/\\r$//' ${vCsv})`),
      joinLines("{", "  read -r _header", `  while IFS=, read -r ${fields}; do`, `    ${col.shell}=\${${col.shell}%$'\\r'}`, indent(body, 4), "  done", `} < ${vCsv}`),
    ][frame];
    const users = joinLines(
      rng.pick([
        createStyle === 0 || createStyle === 2 ? "# One account per row; existing accounts are left in place." : "# Accounts: create or update, keep the password locked, private ~/.ssh.",
        "# Create each account, lock its password and give it a private ~/.ssh.",
        null,
      ]),
      reportStyle === 0 && `${header} > ${vTsv}`,
      nologinInLoop && `: > ${nologinTxt}`,
      loop ?? null,
    );

    const report = [
      null,
      sh`
        # Report what the system now holds, not what the CSV asked for.
        {
          ${header}
          while IFS=, read -r name team; do
            IFS=: read -r _ _ uid _ _ home shell < <(getent passwd "$name")
            printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$name" "$uid" "$team" "$home" "$shell"
          done < <(sed 1d ${vCsv} | cut -d, -f1,3)
        } > ${vTsv}`,
      sh`
        # The report comes from the passwd and group databases.
        {
          ${header}
          for name in $(awk -F, 'NR > 1 { print $1 }' ${vCsv}); do
            IFS=: read -r _ _ uid _ _ home shell < <(getent passwd "$name")
            group=$(id -gn "$name")
            printf '%s\\t%s\\t%s\\t%s\\t%s\\n' "$name" "$uid" "\${group#team-}" "$home" "$shell"
          done
        } > ${vTsv}`,
    ][reportStyle];

    // --- Sanity check on the count (some authors skip it).
    const countCheck = rng.pick([
      sh`
        expected=$(($(wc -l < ${vCsv}) - 1))
        created=$(($(wc -l < ${vTsv}) - 1))
        if [ "$created" -ne "$expected" ]; then
          echo "provisioned $created of $expected users" >&2
          exit 1
        fi`,
      sh`
        lines=$(grep -c . ${vCsv})
        created=$(awk 'END { print NR - 1 }' ${vTsv})
        [ "$created" -eq $((lines - 1)) ] || { echo "report has $created rows for $((lines - 1)) users" >&2; exit 1; }`,
      `created=$(tail -n +2 ${vTsv} | wc -l)`,
      `created=$(grep -vc '^username' ${vTsv})`,
    ]);

    // --- Team membership and nologin accounts.
    const teamsReport = rng.pick([
      sh`
        awk -F'\\t' 'NR > 1 { g = "team-" $3; m[g] = (g in m) ? m[g] "," $1 : $1 } END { for (g in m) print g ":" m[g] }' ${vTsv} | sort > ${teamsTxt}`,
      sh`
        for team in $(awk -F'\\t' 'NR > 1 { print $3 }' ${vTsv} | sort -u); do
          printf 'team-%s:%s\\n' "$team" "$(awk -F'\\t' -v t="$team" '$3 == t { print $1 }' ${vTsv} | paste -sd, -)"
        done > ${teamsTxt}`,
      sh`
        # Primary-group members are not listed in /etc/group: join passwd to group on the gid.
        awk -F: '
          NR == FNR { if ($1 ~ /^team-/) name[$3] = $1; next }
          $4 in name { g = name[$4]; members[g] = (g in members) ? members[g] "," $1 : $1 }
          END { for (g in members) print g ":" members[g] }
        ' <(getent group) <(getent passwd) | sort > ${teamsTxt}`,
    ]);
    const nologinReport = nologinInLoop
      ? null
      : rng.pick([
          `awk -F'\\t' 'NR > 1 && $5 == "/usr/sbin/nologin" { print $1 }' ${vTsv} > ${nologinTxt}`,
          `awk -F, 'NR > 1 { sub(/\\r$/, "") } NR > 1 && $4 == "/usr/sbin/nologin" { print $1 }' ${vCsv} > ${nologinTxt}`,
          `getent passwd $(tail -n +2 ${vTsv} | cut -f1) | awk -F: '$7 == "/usr/sbin/nologin" { print $1 }' > ${nologinTxt}`,
        ]);
    const derived = joinLines(
      maybe(rng, 0.5, ["# Team membership and the accounts that cannot log in.", "# Derived reports."]),
      ...rng.shuffle([teamsReport, nologinReport]),
    );

    // --- Modes and the printed result.
    const modes = rng.pick([
      `chmod 644 ${vTsv} ${teamsTxt} ${nologinTxt}`,
      `chmod 0644 ${vTsv} "${vDir}"/*.txt`,
      `chmod a+r,go-w ${vTsv} ${teamsTxt} ${nologinTxt}`,
    ]);
    const show = rng.int(0, 2);
    const display = [
      joinLines(`column -t -s $'\\t' ${vTsv}`, `echo "provisioned $created users"`),
      joinLines(`cat ${teamsTxt}`, `printf 'ok: %d accounts, %d nologin\\n' "$created" "$(wc -l < ${nologinTxt})"`),
      joinLines(`wc -l ${vTsv} ${teamsTxt} ${nologinTxt}`, `echo "done: $created accounts from $${nm.csv} are in place"`),
    ][show];
    const first = rows[0]?.[0] ?? "alice";
    const firstTeam = teams[0] ?? "data";
    const output = [
      [`username  uid   team      home              shell`, `${first}     1001  ${rows[0]?.[2] ?? "data"}  /home/${first}  ${rows[0]?.[3] ?? "/bin/bash"}`, `provisioned ${n} users`],
      [`team-${firstTeam}:${rows.filter((f) => f[2] === firstTeam).map((f) => f[0]).join(",")}`, `ok: ${n} accounts, ${nologin.length} nologin`],
      [`  ${n + 1} ${r}/provisioned.tsv`, `  ${teams.length} ${r}/teams.txt`, `done: ${n} accounts from ${csvPath} are in place`],
    ][show] ?? [];

    const script = joinSections(preamble, groups ?? null, users, report ?? null, countCheck, derived, joinLines(modes, display ?? null));

    // --- Instruction: same facts, one of three phrasings.
    const strictNologin = rng.chance(0.5);
    const nologinWords = strictNologin ? "the nologin accounts, one username per line," : "the nologin accounts";
    const intro = [
      [
        `Create the local accounts listed in \`${csvPath}\` (username, full_name, team, shell). Each team gets a group named \`team-<team>\` used as the primary group; passwords stay locked; every home /home/<username> has a private \`.ssh/authorized_keys\` (mode 0600).`,
        "",
        `Report the result in \`${r}/provisioned.tsv\` (username, uid, team, home, shell), the team groups and members in \`${r}/teams.txt\`, and ${nologinWords} in \`${r}/nologin_users.txt\`.`,
        "",
        "The script must be idempotent: running it twice must neither fail nor create duplicates.",
      ],
      [
        `Set up the ${p.app} user accounts from \`${csvPath}\`, whose columns are username, full_name, team and shell. Every user's primary group is \`team-<team>\`, passwords are locked, and each home /home/<username> holds an \`.ssh/authorized_keys\` only its owner can read (mode 0600).`,
        "",
        `Write \`${r}/provisioned.tsv\` with the columns username, uid, team, home and shell, list each team group with its members in \`${r}/teams.txt\`, and put ${nologinWords} in \`${r}/nologin_users.txt\`.`,
        "",
        "Running the provisioning a second time must succeed and must not duplicate anything.",
      ],
      [
        `The roster \`${csvPath}\` (username, full_name, team, shell) lists the people who need local accounts on this ${p.app} host. Create them so that:`,
        "",
        "- each team has a group `team-<team>`, which is its members' primary group;",
        "- passwords are locked;",
        "- every home /home/<username> contains `.ssh/authorized_keys` with mode 0600.",
        "",
        `Then report the accounts in \`${r}/provisioned.tsv\` (username, uid, team, home, shell), the team groups and members in \`${r}/teams.txt\`, and ${nologinWords} in \`${r}/nologin_users.txt\`. A second run must neither fail nor create duplicates.`,
      ],
    ];
    const nologinPart = new Part(`${r}/nologin_users.txt`, "nl").isFile();
    if (strictNologin) nologinPart.raw([`assert sorted(nl.read_text().split()) == ${JSON.stringify([...nologin].sort())}`], 1, [`AssertionError: assert [] == ${JSON.stringify([...nologin].sort())}`]);
    return {
      title: `Provision ${p.app} user accounts`,
      intro: rng.pick(intro).join("\n"),
      packages: ["passwd", ...(show === 0 ? ["bsdextrautils"] : [])],
      fixtures: [{ src: "users.csv", dest: csvPath, content: text }],
      script,
      output,
      tests: [
        fixtureIntact(csvPath, lineCount(text)),
        test("test_accounts_exist", "Every listed user exists with a locked password.", 0, [
          new Part(csvPath, "src").raw(
            [
              `for row in csv.DictReader(src.open()):`,
              `    entry = pwd.getpwnam(row["username"])`,
              `    assert entry.pw_shell == row["shell"]`,
              `    assert grp.getgrgid(entry.pw_gid).gr_name == "team-" + row["team"]`,
            ],
            2,
            [`KeyError: "getpwnam(): name not found: '${first}'"`],
          ).build(),
        ]),
        test("test_ssh_dirs_private", "authorized_keys files are private.", 0, [
          new Part(csvPath, "src").raw(
            [
              `for row in csv.DictReader(src.open()):`,
              `    keys = Path("/home") / row["username"] / ".ssh" / "authorized_keys"`,
              `    assert keys.is_file()`,
              `    assert stat.S_IMODE(keys.stat().st_mode) == 0o600`,
            ],
            2,
            [`AssertionError: assert False`, ` +  where False = is_file()`],
          ).build(),
        ]),
        test("test_provisioned_report", "The report lists every user once.", 0, [new Part(`${r}/provisioned.tsv`).isFile().contains("username\tuid\tteam\thome\tshell").minLines(n + 1).build()]),
        test("test_team_and_nologin_reports", "Team and nologin reports exist.", 0, [new Part(`${r}/teams.txt`).isFile().contains("team-").build(), nologinPart.build()]),
      ],
      artifacts: [
        { path: `${r}/provisioned.tsv`, kind: "file" },
        { path: `${r}/teams.txt`, kind: "file" },
        { path: `${r}/nologin_users.txt`, kind: "file" },
      ],
      inputs: [{ path: csvPath, kind: "csv", columns: ["username", "full_name", "team", "shell"] }],
      tags: ["users", "groups", "permissions"],
    };
  },
};
