// Text-processing operators: awk reports, joins, column formatting, encodings, datamash.
import { Part } from "../pytest-parts";
import type { Artifact, OpContext, Operator } from "../types";
import { free, latest, opResult, sh, stemOf } from "./common";

function logInput(c: OpContext): Artifact | null {
  return latest(c, ["log"]);
}

function csvInput(c: OpContext): Artifact | null {
  for (let i = c.artifacts.length - 1; i >= 0; i--) {
    const a = c.artifacts[i];
    if (a && a.kind === "csv" && a.columns && a.columns.length >= 2) return a;
  }
  return null;
}

export const awkStatusReport: Operator = {
  id: "awk-status-report",
  theme: "text",
  applies: (c) => logInput(c) !== null && free(c, `${c.profile.reportDir}/${stemOf(logInput(c)?.path ?? "")}-breakdown.txt`),
  build(c) {
    const log = logInput(c) ?? { path: `${c.profile.logDir}/app.log`, kind: "log", format: "app" };
    const nginx = log.format === "nginx";
    const out = `${c.profile.reportDir}/${stemOf(log.path)}-breakdown.txt`;
    const errors = `${c.profile.reportDir}/${stemOf(log.path)}-errors.txt`;
    const field = nginx ? "$9" : "$2";
    const errTest = nginx ? "$9 >= 500" : '$2 == "ERROR"';
    const step = sh`
      # Breakdown by ${nginx ? "HTTP status" : "log level"}, busiest first, plus the error lines.
      LOG=${log.path}
      OUT=${out}
      test -s "$LOG"
      total=$(wc -l < "$LOG")
      gawk '{ n[${field}]++ } END { for (k in n) printf "%s %d\\n", k, n[k] }' "$LOG" \\
        | sort -k2,2nr -k1,1 > "$OUT"
      awk '${errTest}' "$LOG" > ${errors}
      errors=$(wc -l < ${errors})
      top=$(head -n 1 "$OUT" | cut -d' ' -f1)
      distinct=$(wc -l < "$OUT")
      printf 'total %d\\n' "$total" >> "$OUT"
      while read -r key count; do
        [ "$key" = "total" ] && continue
        printf '%-8s %6d\\n' "$key" "$count"
      done < "$OUT"
      if [ "$distinct" -lt 1 ]; then
        echo "no entries parsed from $LOG" >&2
        exit 1
      fi
      echo "$total lines, $distinct distinct, top $top, $errors errors"`;
    const n = c.rng.int(200, 5000);
    return opResult(this.id, {
      step,
      output: [`${n} lines, ${c.rng.int(3, 9)} distinct, top ${nginx ? "200" : "INFO"}, ${c.rng.int(1, 90)} errors`],
      primary: { path: out, kind: "file" },
      secondary: { path: errors, kind: "log", format: log.format ?? "app" },
      testName: `test_${nginx ? "status" : "level"}_breakdown`,
      testDoc: `Counts per ${nginx ? "status code" : "level"} are sorted busiest first and totalled.`,
      primaryPart: new Part(out).isFile().matches(nginx ? "^[1-5][0-9]{2} [0-9]+$" : "^(INFO|WARN|ERROR|DEBUG) [0-9]+$", "count line").contains("total ").build(),
      secondaryPart: new Part(errors, "err").isFile().raw(
        [`for line in err.read_text().splitlines():`, nginx ? `    assert int(line.split()[8]) >= 500` : `    assert line.split()[1] == "ERROR"`],
        1,
        ["AssertionError: assert 200 >= 500"],
      ).build(),
      need: `Count ${log.path} entries per ${nginx ? "status code" : "level"} into \`${out}\` ("<key> <count>", busiest first, then a total line).`,
      needSecondary: `Copy the ${nginx ? "5xx" : "ERROR"} lines to \`${errors}\`.`,
      label: "breakdown report",
      packages: ["gawk"],
    });
  },
};

export const joinOwnerLookup: Operator = {
  id: "join-owner-lookup",
  theme: "text",
  applies: (c) => csvInput(c) !== null && free(c, `${c.profile.reportDir}/owners-joined.csv`),
  build(c) {
    const src = csvInput(c);
    const path = src?.path ?? `${c.profile.dataDir}/data.csv`;
    const key = src?.columns?.[0] ?? "id";
    const joined = `${c.profile.reportDir}/owners-joined.csv`;
    const unmatched = `${c.profile.reportDir}/owners-unmatched.txt`;
    const team = c.rng.pick(["platform", "payments", "data", "infra", "growth"]);
    const step = sh`
      # Attach an owning team to every ${key}; keys without an owner are listed separately.
      SRC=${path}
      JOINED=${joined}
      keys() { tail -n +2 "$SRC" | cut -d, -f1 | tr -d '\\r' | sort -u; }
      owners() {
        keys | awk 'NR % 3 != 0 { print $0 ",${team}" }' | sort -t, -k1,1
      }
      echo "${key},owner" > "$JOINED"
      join -t, -a1 -e unassigned -o 0,2.2 <(keys) <(owners) >> "$JOINED"
      comm -23 <(keys) <(owners | cut -d, -f1) > ${unmatched}
      assigned=$(grep -vc ',unassigned$' "$JOINED")
      missing=$(wc -l < ${unmatched})
      if [ "$assigned" -le 1 ]; then
        echo "no ${key} matched an owner" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`joined ${c.rng.int(4, 80)} keys, ${c.rng.int(1, 30)} unassigned`],
      primary: { path: joined, kind: "csv", columns: [key, "owner"] },
      secondary: { path: unmatched, kind: "file" },
      testName: "test_owner_join",
      testDoc: `Every ${key} appears once with its owning team.`,
      primaryPart: new Part(joined).isFile().csvHeader([key, "owner"]).raw(
        [`keys = [r[0] for r in rows[1:]]`, `assert len(keys) == len(set(keys))`],
        1,
        ["AssertionError: assert 12 == 9"],
      ).build(),
      secondaryPart: new Part(unmatched, "um").isFile().raw(
        [`assert all("," not in k for k in um.read_text().split())`],
        1,
        ["AssertionError: assert False"],
      ).build(),
      need: `Join each ${key} of ${path} with its owner into \`${joined}\` (header ${key},owner; unassigned when unknown).`,
      needSecondary: `List keys without an owner in \`${unmatched}\`.`,
      label: "owner join",
    });
  },
};

export const columnFormatSummary: Operator = {
  id: "column-format-summary",
  theme: "text",
  applies: (c) => csvInput(c) !== null && free(c, `${c.profile.reportDir}/${stemOf(csvInput(c)?.path ?? "")}-table.txt`),
  build(c) {
    const src = csvInput(c);
    const path = src?.path ?? `${c.profile.dataDir}/data.csv`;
    const table = `${c.profile.reportDir}/${stemOf(path)}-table.txt`;
    const rows = c.rng.int(10, 25);
    const cols = src?.columns ?? ["id", "value"];
    const step = sh`
      # Human-readable preview for the ops channel: aligned columns, numbered rows.
      SRC=${path}
      TABLE=${table}
      test -r "$SRC"
      head -n ${rows + 1} "$SRC" | tr -d '\\r' | column -s, -t \\
        | nl -ba -w3 -s'  ' | expand -t 4 > "$TABLE"
      width=$(awk '{ if (length > w) w = length } END { print w + 0 }' "$TABLE")
      printf '%s\\n' "$(printf '=%.0s' $(seq 1 "$width"))" >> "$TABLE"
      printf 'rows shown: %d of %d\\n' ${rows} "$(($(wc -l < "$SRC") - 1))" >> "$TABLE"
      lines=$(wc -l < "$TABLE")
      if [ "$lines" -lt ${rows + 2} ]; then
        echo "preview has only $lines lines" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`  1  ${cols.join("  ")}`, `rows shown: ${rows} of ${rows + c.rng.int(5, 400)}`],
      primary: { path: table, kind: "file" },
      testName: "test_aligned_preview",
      testDoc: "The preview shows numbered, aligned rows and a footer.",
      primaryPart: new Part(table).isFile().contains(cols[0] ?? "id", "rows shown: ").minLines(rows + 2).build(),
      need: `Render the first ${rows} rows of ${path} as an aligned, numbered table in \`${table}\`, ending with a "rows shown" footer.`,
      label: "aligned preview",
      packages: ["bsdextrautils"],
    });
  },
};

export const normalizeEncoding: Operator = {
  id: "normalize-encoding",
  theme: "text",
  applies: (c) => latest(c, ["csv", "log"]) !== null && free(c, `${c.profile.dataDir}/normalized`),
  build(c) {
    const src = latest(c, ["csv", "log"])?.path ?? `${c.profile.dataDir}/input.csv`;
    const outDir = `${c.profile.dataDir}/normalized`;
    const out = `${outDir}/${stemOf(src)}.utf8.txt`;
    const report = `${outDir}/encoding-report.txt`;
    const step = sh`
      # Downstream parsers choke on CRLF and Latin-1: normalise to UTF-8 with LF endings.
      SRC=${src}
      OUT=${out}
      mkdir -p ${outDir}
      enc=$(file -b --mime-encoding "$SRC")
      case "$enc" in
        utf-8|us-ascii) cp "$SRC" "$OUT" ;;
        *) iconv -f "$enc" -t UTF-8//TRANSLIT "$SRC" > "$OUT" ;;
      esac
      dos2unix -q "$OUT"
      sed -i 's/[[:space:]]*$//' "$OUT"
      if grep -q $'\\r' "$OUT"; then
        echo "CR characters survived in $OUT" >&2
        exit 1
      fi
      iconv -f UTF-8 -t UTF-8 "$OUT" > /dev/null
      lines=$(wc -l < "$OUT")
      digest=$(md5sum "$OUT" | cut -d' ' -f1)
      cat > ${report} <<EOF
      source=$SRC
      source_encoding=$enc
      lines=$lines
      md5=$digest
      EOF
      echo "normalised $SRC ($enc) -> $OUT"`;
    return opResult(this.id, {
      step,
      output: [`normalised ${src} (us-ascii) -> ${out}`],
      primary: { path: out, kind: "file" },
      secondary: { path: report, kind: "config" },
      testName: "test_normalized_utf8",
      testDoc: "The normalised copy is UTF-8 with LF line endings.",
      primaryPart: new Part(out).isFile().raw(
        [`raw = p.read_bytes()`, `assert b"\\r" not in raw`, `raw.decode("utf-8")`],
        1,
        ["AssertionError: assert 13 not in b'id,name\\r\\n...'"],
      ).build(),
      secondaryPart: new Part(report, "rep").isFile().contains("source_encoding=", "lines=").build(),
      need: `Write a UTF-8, LF-terminated copy of ${src} without trailing spaces to \`${out}\`.`,
      needSecondary: `Record source, detected encoding and line count in \`${report}\`.`,
      label: "normalised copy",
      packages: ["dos2unix", "file"],
    });
  },
};

export const datamashGroupStats: Operator = {
  id: "datamash-group-stats",
  theme: "text",
  applies: (c) => csvInput(c) !== null && free(c, `${c.profile.reportDir}/group-stats.tsv`),
  build(c) {
    const src = csvInput(c);
    const path = src?.path ?? `${c.profile.dataDir}/data.csv`;
    const cols = src?.columns ?? ["key", "value"];
    const group = cols[Math.min(1, cols.length - 1)] ?? "key";
    const stats = `${c.profile.reportDir}/group-stats.tsv`;
    const step = sh`
      # Per-${group} row counts and distinct first-column values, computed with datamash.
      SRC=${path}
      STATS=${stats}
      printf '${group}\\trows\\tdistinct_${cols[0] ?? "id"}\\n' > "$STATS"
      tail -n +2 "$SRC" | tr -d '\\r' | tr ',' '\\t' \\
        | sort -t $'\\t' -k2,2 \\
        | datamash -g 2 count 1 countunique 1 >> "$STATS"
      groups=$(tail -n +2 "$STATS" | wc -l)
      busiest=$(tail -n +2 "$STATS" | sort -t $'\\t' -k2,2nr | head -n 1 | cut -f1)
      case "$groups" in
        0)
          echo "no groups in $SRC" >&2
          exit 1
          ;;
        1) echo "note: a single ${group} value" ;;
      esac`;
    return opResult(this.id, {
      step,
      output: [`${c.rng.int(2, 12)} groups, busiest: ${group}-${c.rng.int(1, 9)}`],
      primary: { path: stats, kind: "file" },
      testName: "test_group_stats",
      testDoc: `Row counts per ${group} are reported.`,
      primaryPart: new Part(stats).isFile().raw(
        [`rows = [line.split("\\t") for line in p.read_text().splitlines()]`, `assert rows[0][0] == ${JSON.stringify(group)}`, `assert all(int(r[1]) > 0 for r in rows[1:])`],
        2,
        [`AssertionError: assert 'key' == '${group}'`],
      ).build(),
      need: `Report rows and distinct ${cols[0] ?? "id"} values per ${group} of ${path} in \`${stats}\` (tab-separated, with header).`,
      label: "group stats",
      packages: ["datamash"],
    });
  },
};
