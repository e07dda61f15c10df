// nginx-log-triage's four reports (status counts, top clients, 5xx lines, bytes per path), tallied
// in one of four ways: one awk pass, a pipeline per report, Python, or bash associative arrays.
import { sh } from "../operators/common";
import type { Rng } from "../prng";
import { indent, joinLines, joinSections } from "./compose";

/** Stands for a template line a variant leaves out; such lines are filtered away afterwards. */
const DROP = "\u0000drop\u0000";

/** What the tallies take from the rest of the script. */
export interface TallyNames {
  /** The script's references (`$LOG`-style) to the log, the report directory and the top-N count. */
  vLog: string;
  vOut: string;
  vTop: string;
  /** How the script spells the path of one report. */
  at: (name: string) => string;
  /** How this author starts the 5xx file: emptied, or created with its final mode. */
  freshErrors: string;
}

/** The four reports: one of four ways to tally the log; `python` says whether Python does the counting. */
export function triageTallies(rng: Rng, { vLog, vOut, vTop, at, freshErrors }: TallyNames): { tallies: string; python: boolean } {
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
  return { tallies, python };
}
