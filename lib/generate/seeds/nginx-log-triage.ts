// System-administration seed: triage a day of nginx access log into status, client, 5xx and
// bytes-per-path reports plus a summary.env; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { joinLines, joinSections, maybe } from "./compose";
import { nginxLog } from "./data";
import { triageTallies } from "./nginx-log-triage.parts";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

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

    // --- The four reports: one of four ways to tally the log (nginx-log-triage.parts.ts).
    const { tallies, python } = triageTallies(rng, { vLog, vOut, vTop, at, freshErrors });

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
