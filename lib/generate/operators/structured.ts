// JSON, YAML and XML operators: jq summaries, yq exports, metadata stamps, CSV→JSONL, xmllint.
import { Part } from "../pytest-parts";
import type { Operator } from "../types";
import { baseOf, free, latest, opResult, sh, stemOf } from "./common";

export const jqSummary: Operator = {
  id: "jq-summary",
  theme: "json",
  applies: (c) => latest(c, ["csv", "log"]) !== null && free(c, `${c.profile.reportDir}/summary.json`),
  build(c) {
    const src = latest(c, ["csv", "log"])?.path ?? `${c.profile.dataDir}/input.csv`;
    const out = `${c.profile.reportDir}/summary.json`;
    const step = sh`
      # Machine-readable summary for the dashboard, built with jq from raw line stats.
      SRC=${src}
      OUT=${out}
      lines=$(wc -l < "$SRC")
      bytes=$(wc -c < "$SRC")
      words=$(wc -w < "$SRC")
      first=$(head -n 1 "$SRC" | cut -c1-60)
      jq -n \\
        --arg source "$SRC" \\
        --arg first "$first" \\
        --argjson lines "$lines" \\
        --argjson bytes "$bytes" \\
        --argjson words "$words" \\
        '{source: $source, lines: $lines, bytes: $bytes, words: $words, first_line: $first}' > "$OUT"
      if ! jq -e '.lines > 0 and .bytes >= .lines' "$OUT" > /dev/null; then
        echo "implausible counts in $OUT" >&2
        exit 1
      fi
      jq -r 'to_entries[] | "\\(.key)=\\(.value)"' "$OUT" \\
        | sort \\
        | column -t -s=
      echo "summary written to $OUT"`;
    return opResult(this.id, {
      step,
      output: [`bytes=${c.rng.int(900, 90000)}`, `lines=${c.rng.int(20, 900)}`, `source=${src}`, `summary written to ${out}`],
      primary: { path: out, kind: "json" },
      testName: "test_summary_json",
      testDoc: "summary.json holds line, byte and word counts of the source.",
      primaryPart: new Part(out).isFile().jsonKeys("source", "lines", "bytes", "words").raw(
        [`assert data["lines"] > 0`, `assert data["source"] == ${JSON.stringify(src)}`],
        2,
        ["AssertionError: assert 0 > 0"],
      ).build(),
      need: `Summarise ${src} as JSON in \`${out}\` with source, lines, bytes, words and first_line.`,
      label: "JSON summary",
      packages: ["jq", "bsdextrautils"],
    });
  },
};

export const yamlConfigExport: Operator = {
  id: "yaml-config-export",
  theme: "json",
  applies: (c) => free(c, `${c.profile.root}/config/${c.profile.app}.yaml`),
  build(c) {
    const { app, root, port, reportDir, logDir } = c.profile;
    const yaml = `${root}/config/${app}.yaml`;
    const json = `${root}/config/${app}.json`;
    const workers = c.rng.int(2, 8);
    const step = sh`
      # Single source of truth for service settings, exported to both YAML and JSON.
      CONF_DIR=${root}/config
      mkdir -p "$CONF_DIR"
      cat > ${yaml} <<'YAML'
      service:
        name: ${app}
        port: ${port}
        workers: ${workers}
      paths:
        reports: ${reportDir}
        logs: ${logDir}
      YAML
      yq -yi '.service.generated = true' ${yaml}
      yq '.' ${yaml} > ${json}
      jq -e '.service.port == ${port}' ${json} > /dev/null
      name=$(yq -r '.service.name' ${yaml})
      [ "$name" = "${app}" ] || { echo "bad service name: $name" >&2; exit 1; }
      yq -r '.paths | to_entries[] | "\\(.key): \\(.value)"' ${yaml}
      echo "exported ${yaml} and ${json}"`;
    return opResult(this.id, {
      step,
      output: [`reports: ${reportDir}`, `logs: ${logDir}`, `exported ${yaml} and ${json}`],
      primary: { path: yaml, kind: "yaml" },
      secondary: { path: json, kind: "json" },
      testName: "test_service_config_yaml",
      testDoc: "The service config exists as YAML with the expected values.",
      primaryPart: new Part(yaml).isFile().contains(`port: ${port}`, `workers: ${workers}`, "generated: true").build(),
      secondaryPart: new Part(json, "js").isFile().raw(
        [`cfg = json.loads(js.read_text())`, `assert cfg["service"]["port"] == ${port}`],
        1,
        [`KeyError: 'service'`],
      ).build(),
      need: `Describe the service (name ${app}, port ${port}, ${workers} workers, report and log paths) in \`${yaml}\`.`,
      needSecondary: `Export the same document as JSON to \`${json}\`.`,
      label: "service YAML",
      packages: ["yq", "jq"],
    });
  },
};

export const stampJsonMetadata: Operator = {
  id: "stamp-json-metadata",
  theme: "json",
  extendsExisting: true,
  applies: (c) => latest(c, ["json"]) !== null,
  build(c) {
    const target = latest(c, ["json"])?.path ?? `${c.profile.reportDir}/summary.json`;
    const generator = c.rng.pick(["rst-report", "nightly-batch", "ops-export"]);
    const step = sh`
      # Provenance for audits: stamp the JSON with its generator and content digest.
      TARGET=${target}
      jq -e 'type == "object"' "$TARGET" > /dev/null
      digest=$(jq -cS 'del(._meta)' "$TARGET" | sha256sum | cut -d' ' -f1)
      host=$(hostname -s)
      jq --arg d "$digest" --arg h "$host" --arg g "${generator}" \\
        '._meta = {generator: $g, sha256: $d, host: $h}' "$TARGET" | sponge "$TARGET"
      jq -e '._meta.sha256 | length == 64' "$TARGET" > /dev/null
      check=$(jq -cS 'del(._meta)' "$TARGET" | sha256sum | cut -d' ' -f1)
      if [ "$check" != "$digest" ]; then
        echo "payload changed while stamping" >&2
        exit 1
      fi
      case "$(jq -r '._meta.generator' "$TARGET")" in
        "${generator}") ;;
        *)
          echo "generator not recorded in $TARGET" >&2
          exit 1
          ;;
      esac`;
    return opResult(this.id, {
      step,
      output: ["generator,host,sha256"],
      primary: { path: target, kind: "json" },
      primaryIsNew: false,
      testName: `test_${stemOf(target).replace(/[^a-z0-9]+/gi, "_").toLowerCase()}_provenance`,
      testDoc: `${baseOf(target)} carries a _meta provenance block.`,
      primaryPart: new Part(target).isFile().raw(
        [`meta = json.loads(p.read_text())["_meta"]`, `assert meta["generator"] == ${JSON.stringify(generator)}`, `assert len(meta["sha256"]) == 64`],
        2,
        ["KeyError: '_meta'"],
      ).build(true),
      need: `Add a \`_meta\` object (generator ${generator}, sha256 of the rest, host) to \`${target}\`.`,
      label: "provenance stamp",
      packages: ["jq", "moreutils"],
    });
  },
};

export const csvToJsonl: Operator = {
  id: "csv-to-jsonl",
  theme: "json",
  applies: (c) => latest(c, ["csv"]) !== null && free(c, `${c.profile.reportDir}/${stemOf(latest(c, ["csv"])?.path ?? "")}.jsonl`),
  build(c) {
    const src = latest(c, ["csv"])?.path ?? `${c.profile.dataDir}/input.csv`;
    const out = `${c.profile.reportDir}/${stemOf(src)}.jsonl`;
    const step = sh`
      # JSON Lines for the loader: one object per CSV row, keys from the header.
      SRC=${src}
      OUT=${out}
      python3 -c '
      import csv, json, sys
      with open(sys.argv[1], newline="") as fh, open(sys.argv[2], "w") as out:
          for row in csv.DictReader(fh):
              out.write(json.dumps(row, sort_keys=True) + "\\n")
      ' "$SRC" "$OUT"
      rows=$(($(wc -l < "$SRC") - 1))
      objs=$(wc -l < "$OUT")
      if [ "$rows" -ne "$objs" ]; then
        echo "row count mismatch: $rows csv rows, $objs objects" >&2
        exit 1
      fi
      shapes=$(jq -c 'keys' "$OUT" | sort -u | wc -l)
      if [ "$shapes" -ne 1 ]; then
        echo "rows have $shapes different key sets" >&2
        exit 1
      fi
      shuf -n 1 --random-source=<(yes) "$OUT"
      echo "converted $objs rows to $OUT"`;
    const n = c.rng.int(10, 600);
    return opResult(this.id, {
      step,
      output: [String(n), `converted ${n} rows to ${out}`],
      primary: { path: out, kind: "json" },
      testName: "test_rows_as_jsonl",
      testDoc: "Every CSV row becomes one JSON object.",
      primaryPart: new Part(out).isFile().raw(
        [
          `objs = [json.loads(line) for line in p.read_text().splitlines()]`,
          `with open(${JSON.stringify(src)}, newline="") as fh:`,
          `    expected = list(csv.DictReader(fh))`,
          `assert objs == expected`,
        ],
        1,
        ["AssertionError: assert [] == [{'id': '1', ...}]"],
      ).build(),
      need: `Convert ${src} to JSON Lines at \`${out}\`: one object per row, keys from the header.`,
      label: "JSON Lines",
      packages: ["jq", "python3"],
    });
  },
};

export const xmlReport: Operator = {
  id: "xml-report",
  theme: "json",
  applies: (c) => free(c, `${c.profile.reportDir}/report.xml`),
  build(c) {
    const { reportDir, app } = c.profile;
    const xml = `${reportDir}/report.xml`;
    const step = sh`
      # JUnit-style XML for the CI dashboard, one testcase per report file.
      OUT=${xml}
      mkdir -p ${reportDir}
      {
        echo '<?xml version="1.0" encoding="UTF-8"?>'
        echo '<testsuite name="${app}-reports">'
        find ${reportDir} -maxdepth 1 -type f ! -name 'report.xml' -printf '%f %s\\n' | sort \\
          | while read -r name size; do
              printf '  <testcase name="%s" classname="reports" size="%s"/>\\n' "$name" "$size"
            done
        echo '</testsuite>'
      } | xmllint --format --output "$OUT" -
      xmllint --noout "$OUT"
      cases=$(xmllint --xpath 'count(//testcase)' "$OUT")
      sed -i "s/<testsuite name=\\"${app}-reports\\"/<testsuite name=\\"${app}-reports\\" tests=\\"$cases\\"/" "$OUT"
      xmlstarlet val -q "$OUT"
      if [ "$cases" -eq 0 ]; then
        echo "warning: no report files to describe" >&2
      fi
      echo "report.xml lists $cases files"`;
    return opResult(this.id, {
      step,
      output: [`report.xml lists ${c.rng.int(1, 9)} files`],
      primary: { path: xml, kind: "file" },
      testName: "test_xml_report",
      testDoc: "report.xml is well-formed and counts its test cases.",
      primaryPart: new Part(xml).isFile().run(["xmllint", "--noout", xml]).raw(
        [`root = ET.parse(p).getroot()`, `assert root.get("tests") == str(len(root.findall("testcase")))`],
        1,
        ["AssertionError: assert None == '0'"],
      ).build(),
      need: `Describe each report file in a well-formed JUnit-style \`${xml}\` whose testsuite carries a tests count.`,
      label: "XML report",
      packages: ["libxml2-utils", "xmlstarlet"],
    });
  },
};
