// Data-processing seed: normalise raw JSON Lines product events and aggregate them per type, per
// day and by revenue; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { columnT, failStyle, variant } from "./compose";
import { eventsJsonl } from "./data";
import { aggregateSections } from "./event-normalize.parts";
import { fixtureIntact, Part, test, type SeedTemplate } from "./spec";

interface EventFacts {
  n: number;
  byType: { type: string; count: number }[];
  daily: { date: string; count: number }[];
  purchases: number;
  refunds: number;
  users: number;
}

function eventFacts(text: string): EventFacts {
  const events = text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; user: string; ts: string; amount: number | null });
  const count = <K extends string>(keys: K[]): Map<K, number> => {
    const m = new Map<K, number>();
    for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
    return m;
  };
  const sum = (type: string) => events.filter((e) => e.type === type).reduce((s, e) => s + (e.amount ?? 0), 0);
  return {
    n: events.length,
    byType: [...count(events.map((e) => e.type))].map(([type, c]) => ({ type, count: c })).sort((a, b) => b.count - a.count || a.type.localeCompare(b.type)),
    daily: [...count(events.map((e) => e.ts.slice(0, 10)))].map(([date, c]) => ({ date, count: c })).sort((a, b) => a.date.localeCompare(b.date)),
    purchases: sum("purchase"),
    refunds: sum("refund"),
    users: new Set(events.map((e) => e.user)).size,
  };
}

export const eventNormalize: SeedTemplate = {
  id: "event-normalize",
  category: "data-processing",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const src = `${p.dataDir}/events.jsonl`;
    const n = rng.int(30, 60);
    const text = eventsJsonl(rng, n);
    const r = p.reportDir;
    const facts = eventFacts(text);
    const v = rng.pick([
      { src: "SRC", out: "OUT" },
      { src: "EVENTS", out: "REPORT_DIR" },
      { src: "RAW", out: "DEST" },
      { src: "input", out: "outdir" },
    ]);
    const IN = `"$${v.src}"`;
    const at = (file: string): string => `"$${v.out}/${file}"`;
    const N = at("normalized.jsonl");
    const C = at("events_by_type.csv");
    const D = at("daily_counts.txt");
    const R = at("revenue.json");
    const tools = new Set<string>();
    const sections: string[] = [];
    const python = rng.chance(0.22);

    // Declarations, the empty-input guard and the output directory (created before or after
    // validation: either way nothing is written until every event has been checked).
    const decl = [`${v.src}=${src}`, `${v.out}=${r}`];
    if (rng.chance(0.4)) decl.reverse();
    const mkdir = variant(rng, tools, [
      [`mkdir -p "$${v.out}"`, ["mkdir"]],
      [`install -d "$${v.out}"`, ["install"]],
      [`mkdir -p -m 755 "$${v.out}"`, ["mkdir"]],
    ]);
    const fail = failStyle(rng);
    if (fail.helper.includes("basename")) tools.add("basename");
    const empty = rng.pick([
      fail.check(`[ -s ${IN} ]`, `no events in $${v.src}`, `[ ! -s ${IN} ]`),
      fail.check(`test -s ${IN}`, `$${v.src} is missing or empty`),
      fail.check(`[ -s ${IN} ]`, `nothing to normalise: $${v.src} is empty`),
    ]);
    const head = rng.pick([
      "# Normalise raw product events and aggregate them for the growth report.",
      "# Product events: canonical JSON Lines first, then the growth-report aggregates.",
      "# Clean up the raw event stream and derive per-type, per-day and revenue figures.",
    ]);
    const earlyDir = rng.chance(0.5);
    sections.push([head, ...decl, ...(fail.helper === "" ? [] : [fail.helper]), ...(earlyDir ? [mkdir] : []), empty].join("\n"));

    if (python) {
      tools.add("python3");
      // Dedup by id, or by the whole normalised record.
      const dedup = rng.pick([
        ["seen = set()", 'if row["id"] in seen:\n    continue\nseen.add(row["id"])'],
        ["keys = set()", "key = json.dumps(row, sort_keys=True)\nif key in keys:\n    continue\nkeys.add(key)"],
      ] as const);
      const body = sh`
        python3 - <<'PY'
        import json
        import sys

        rows = []
        ${dedup[0]}
        with open("${src}") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                event = json.loads(line)
                if event.get("id") is None or event.get("type") is None:
                    sys.exit(f"${src}:{lineno}: event without id or type")
                row = {
                    "id": event["id"],
                    "type": event["type"].lower(),
                    "user": event.get("user"),
                    "date": event["ts"][:10],
                    "amount": event.get("amount") or 0,
                }
                DEDUP
                rows.append(row)

        with open("${r}/normalized.jsonl", "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\\n")
        print(f"kept {len(rows)} events")
        PY`.replace("DEDUP", dedup[1].replace(/\n/g, "\n        "));
      sections.push([...(earlyDir ? [] : [mkdir]), "# Validate every event before writing anything, then emit the canonical shape.", body].join("\n"));
    } else {
      // Validation in jq.
      const validate = variant(rng, tools, [
        [
          [
            `bad=$(jq -c 'select(.id == null or .type == null)' ${IN} | wc -l)`,
            fail.check(`[ "$bad" -eq 0 ]`, "$bad events lack id or type", `[ "$bad" -gt 0 ]`),
          ].join("\n"),
          ["jq", "wc"],
        ],
        [
          [
            "# Every event needs an id and a type; refuse the whole file otherwise.",
            fail.check(`jq -s -e 'all(.[]; .id != null and .type != null)' ${IN} > /dev/null`, `some events in $${v.src} have no id or type`),
          ].join("\n"),
          ["jq"],
        ],
        [
          [
            `missing=$(jq -r 'select(.id == null or .type == null) | input_line_number' ${IN} | paste -sd' ' -)`,
            fail.check(`[ -z "$missing" ]`, "events without id/type on lines: $missing", `[ -n "$missing" ]`),
          ].join("\n"),
          ["jq", "paste"],
        ],
      ]);
      const date = rng.pick([".ts[0:10]", '(.ts | split("T") | .[0])', "(.ts | .[:10])"]);
      const amount = rng.pick(["(.amount // 0)", "(if .amount == null then 0 else .amount end)"]);
      const normalize = variant(rng, tools, [
        [
          sh`
            # One canonical shape: lower-case type, date split out, amount as a number or 0.
            jq -c '{
                id,
                type: (.type | ascii_downcase),
                user,
                date: ${date},
                amount: ${amount}
              }' ${IN} \\
              | sort -u > ${N}`,
          ["jq", "sort"],
        ],
        [
          sh`
            # Canonical events, one per id (unique_by also orders them by id).
            jq -s -c '
              map({
                id,
                type: (.type | ascii_downcase),
                user,
                date: ${date},
                amount: ${amount}
              })
              | unique_by(.id)
              | .[]
            ' ${IN} > ${N}`,
          ["jq"],
        ],
        [
          sh`
            # Normalise into a temp file next to the target and rename it into place, dropping
            # exact repeats but keeping the input order.
            staged=$(mktemp "${"$"}${v.out}/.normalized.XXXXXX")
            trap 'rm -f "$staged"' EXIT
            jq -c '
              {
                id: .id,
                type: (.type | ascii_downcase),
                user: .user,
                date: ${date},
                amount: ${amount}
              }
            ' ${IN} | awk '!seen[$0]++' > "$staged"
            chmod 644 "$staged"
            mv "$staged" ${N}`,
          ["jq", "mktemp", "awk", "chmod", "mv"],
        ],
      ]);
      sections.push([validate, ...(earlyDir ? [] : [mkdir])].join("\n"), normalize);
    }

    // Aggregates: per type, per day, revenue; any order (event-normalize.parts.ts).
    sections.push(...aggregateSections(rng, tools, { N, C, D, R }));

    // Sanity checks on what was written: the counts always, a consistency check in some seeds.
    const count = variant(rng, tools, [
      [
        [
          `in_count=$(wc -l < ${IN})`,
          `out_count=$(wc -l < ${N})`,
          fail.check(`[ "$out_count" -le "$in_count" ]`, "normalisation duplicated events", `[ "$out_count" -gt "$in_count" ]`),
        ].join("\n"),
        ["wc"],
      ],
      [
        [
          `in_count=$(grep -c . ${IN})`,
          `out_count=$(grep -c . ${N})`,
          fail.check(`[ "$out_count" -le "$in_count" ]`, "more events out ($out_count) than in ($in_count)", `[ "$out_count" -gt "$in_count" ]`),
        ].join("\n"),
        ["grep"],
      ],
    ]);
    const consistency: readonly (readonly [string, readonly string[]])[] = [
      [
        [
          `sum=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' ${C})`,
          fail.check(`[ "$sum" -eq "$(wc -l < ${N})" ]`, "type counts ($sum) do not add up", `[ "$sum" -ne "$(wc -l < ${N})" ]`),
        ].join("\n"),
        ["awk", "wc"],
      ],
      [
        fail.check(`jq -e '.net == .purchases - .refunds' ${R} > /dev/null`, "revenue.json is inconsistent"),
        ["jq"],
      ],
    ];
    const extra = rng.chance(0.4) ? [variant(rng, tools, consistency)] : [];
    sections.push(rng.shuffle([count, ...extra]).join("\n"));

    // What the run prints.
    const output: string[] = [];
    const shows = [rng.pick(["types", "days", "revenue"] as const)];
    const display: string[] = [];
    for (const s of shows) {
      if (s === "types") {
        display.push(variant(rng, tools, [[`column -t -s, ${C}`, ["column"]], [`cat ${C}`, ["cat"]]]));
        const rowsOut = [["type", "count"], ...facts.byType.map((t) => [t.type, String(t.count)])];
        output.push(...(display[display.length - 1]?.startsWith("column") ? columnT(rowsOut) : rowsOut.map((x) => x.join(","))));
      } else if (s === "days") {
        display.push(variant(rng, tools, [[`tail -n 3 ${D}`, ["tail"]], [`head -n 3 ${D}`, ["head"]]]));
        const days = facts.daily.map((d) => `${d.date} ${d.count}`);
        output.push(...(display[display.length - 1]?.startsWith("tail") ? days.slice(-3) : days.slice(0, 3)));
      } else {
        display.push(`jq -r '"net \\(.net) from \\(.active_users) users"' ${R}`);
        tools.add("jq");
        output.push(`net ${facts.purchases - facts.refunds} from ${facts.users} users`);
      }
    }
    const closing = rng.pick([
      { text: `echo "normalised $out_count of $in_count events"`, out: `normalised ${facts.n} of ${facts.n} events` },
      { text: `echo "${"$"}${v.out}: $out_count canonical events (input had $in_count)"`, out: `${r}: ${facts.n} canonical events (input had ${facts.n})` },
      { text: `printf '%s events in, %s out\\n' "$in_count" "$out_count"`, out: `${facts.n} events in, ${facts.n} out` },
    ]);
    if (python) output.unshift(`kept ${facts.n} events`);
    output.push(closing.out);
    sections.push([...display, closing.text].join("\n"));
    const script = sections.join("\n\n");

    const first = rng.pick([
      `Raw product events arrive as JSON Lines in \`${src}\`. Normalise each to \`{id, type, user, date, amount}\` (type lower-case, date as YYYY-MM-DD, missing amount as 0), deduplicated, in \`${r}/normalized.jsonl\`.`,
      `\`${src}\` holds raw product events as JSON Lines. Write them, without duplicates, to \`${r}/normalized.jsonl\` as \`{id, type, user, date, amount}\`: type lower-cased, date as YYYY-MM-DD, a missing amount as 0.`,
      `Normalise the JSON Lines events in \`${src}\` into \`${r}/normalized.jsonl\`, deduplicated, as \`{id, type, user, date, amount}\` with a lower-case type, a YYYY-MM-DD date and 0 for a missing amount.`,
    ]);
    const checkDailySum = rng.chance(0.4);
    const packages = ["jq", ...(tools.has("python3") ? ["python3"] : []), ...(tools.has("column") ? ["bsdextrautils"] : [])];
    return {
      title: rng.pick([`Normalise ${p.app} product events`, `Clean and aggregate ${p.app} product events`, `Canonical ${p.app} events and growth figures`]),
      intro: [
        first,
        "",
        rng.pick([
          `Then write \`${r}/events_by_type.csv\` (type,count, busiest first), \`${r}/daily_counts.txt\` ("<date> <count>") and \`${r}/revenue.json\` with purchases, refunds, net and active_users.`,
          `From those, produce \`${r}/events_by_type.csv\` (type,count, busiest first), \`${r}/daily_counts.txt\` ("<date> <count>" lines) and \`${r}/revenue.json\` with purchases, refunds, net and active_users.`,
        ]),
        "",
        rng.pick([
          "An event without an id or type is an error: stop without writing partial output.",
          "If any event lacks an id or a type, fail without writing partial output.",
        ]),
      ].join("\n"),
      packages,
      fixtures: [{ src: "events.jsonl", dest: src, content: text }],
      script,
      output,
      tests: [
        fixtureIntact(src, n),
        test("test_normalized_events", "Normalised events have the canonical keys.", 0, [
          new Part(`${r}/normalized.jsonl`).isFile().raw(
            [`events = [json.loads(l) for l in p.read_text().splitlines()]`, `assert events`, `assert all(set(e) == {"id", "type", "user", "date", "amount"} for e in events)`],
            2,
            ["AssertionError: assert []"],
          ).build(),
        ]),
        test("test_events_by_type", "Counts per type add up.", 0, [new Part(`${r}/events_by_type.csv`).isFile().csvHeader(["type", "count"]).build()]),
        test("test_daily_counts", "Daily counts are dated.", 0, [
          checkDailySum
            ? new Part(`${r}/daily_counts.txt`).isFile().matches("^2024-03-0[1-7] [0-9]+$", "daily line").raw(
                [`assert sum(int(l.split()[1]) for l in p.read_text().splitlines()) == ${n}`],
                1,
                [`AssertionError: assert 0 == ${n}`],
              ).build()
            : new Part(`${r}/daily_counts.txt`).isFile().matches("^2024-03-0[1-7] [0-9]+$", "daily line").build(),
        ]),
        test("test_revenue", "Net revenue is purchases minus refunds.", 0, [
          new Part(`${r}/revenue.json`).isFile().jsonKeys("purchases", "refunds", "net", "active_users").raw(
            [`assert data["net"] == data["purchases"] - data["refunds"]`],
            1,
            ["AssertionError: assert 120 == 180"],
          ).build(),
        ]),
      ],
      artifacts: [
        { path: `${r}/normalized.jsonl`, kind: "json" },
        { path: `${r}/events_by_type.csv`, kind: "csv", columns: ["type", "count"] },
        { path: `${r}/daily_counts.txt`, kind: "file" },
        { path: `${r}/revenue.json`, kind: "json" },
      ],
      inputs: [{ path: src, kind: "json" }],
      tags: ["jq", "json", "etl"],
    };
  },
};
