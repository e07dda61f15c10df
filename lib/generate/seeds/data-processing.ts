// Data-processing seeds: sales roll-up, event normalisation.
import { sh } from "../operators/common";
import { eventsJsonl, salesCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const salesRollup: SeedTemplate = {
  id: "sales-rollup",
  category: "data-processing",
  image: "python:3.12-slim",
  difficulty: "easy",
  build(rng, p) {
    const src = `${p.dataDir}/sales.csv`;
    const rows = rng.int(30, 70);
    const text = salesCsv(rng, rows);
    const r = p.reportDir;
    const script = sh`
      # Roll the raw sales export up by month and region; the finance sheet imports these files.
      SRC=${src}
      OUT=${r}
      EXPECTED_HEADER="order_id,date,region,product,units,unit_price"
      mkdir -p "$OUT"
      header=$(head -n 1 "$SRC" | tr -d '\\r')
      if [ "$header" != "$EXPECTED_HEADER" ]; then
        echo "unexpected header: $header" >&2
        exit 1
      fi

      # One pass: monthly, regional and per-product aggregates into scratch files.
      tr -d '\\r' < "$SRC" | awk -F, -v out="$OUT" '
        NR == 1 { next }
        {
          month = substr($2, 1, 7)
          orders[month]++
          units[month] += $5
          revenue[month] += $5 * $6
          region[$3] += $5 * $6
          product[$4] += $5
        }
        END {
          for (m in orders) printf "%s,%d,%d,%.2f\\n", m, orders[m], units[m], revenue[m] > (out "/months.tmp")
          for (g in region) printf "%s\\t%.2f\\n", g, region[g] > (out "/regions.tmp")
          for (p in product) printf "%d %s\\n", product[p], p > (out "/products.tmp")
        }'

      echo "month,orders,units,revenue" > "$OUT/monthly_totals.csv"
      sort -t, -k1,1 "$OUT/months.tmp" >> "$OUT/monthly_totals.csv"
      sort "$OUT/regions.tmp" | jq -R -s '
        split("\\n")
        | map(select(length > 0) | split("\\t"))
        | map({region: .[0], revenue: (.[1] | tonumber)})
      ' > "$OUT/region_revenue.json"
      sort -k1,1nr -k2,2 "$OUT/products.tmp" | head -n 3 > "$OUT/top_products.txt"
      rm -f "$OUT"/*.tmp

      orders=$(($(wc -l < "$SRC") - 1))
      summed=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' "$OUT/monthly_totals.csv")
      if [ "$orders" -ne "$summed" ]; then
        echo "monthly totals cover $summed of $orders orders" >&2
        exit 1
      fi
      total=$(jq '[.[].revenue] | add' "$OUT/region_revenue.json")
      cat > "$OUT/totals.txt" <<EOF
      orders=$orders
      revenue=$total
      EOF
      python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$OUT/region_revenue.json"
      column -s, -t "$OUT/monthly_totals.csv"
      months=$(tail -n +2 "$OUT/monthly_totals.csv" | cut -d, -f1 | paste -sd, -)
      echo "rolled up $orders orders ($months)"`;
    return {
      title: `Roll up ${p.app} sales by month and region`,
      intro: [
        `\`${src}\` is a raw sales export (order_id, date, region, product, units, unit_price). Build the finance roll-ups:`,
        "",
        `- \`${r}/monthly_totals.csv\` with header \`month,orders,units,revenue\`, one row per YYYY-MM, revenue to two decimals`,
        `- \`${r}/region_revenue.json\`: a list of \`{"region", "revenue"}\` objects`,
        `- \`${r}/top_products.txt\`: the three best-selling products by units`,
        `- \`${r}/totals.txt\` with orders= and revenue= lines`,
        "",
        "Rows may end with CRLF line endings; never modify the export itself.",
      ].join("\n"),
      packages: ["jq", "gawk", "bsdextrautils"],
      fixtures: [{ src: "sales.csv", dest: src, content: text }],
      script,
      output: [`north: ${rng.int(400, 9000)}.${rng.int(10, 99)}`, `rolled up ${rows} orders`],
      tests: [
        fixtureIntact(src, lineCount(text)),
        test("test_monthly_totals", "Monthly totals cover every order.", 0, [
          new Part(`${r}/monthly_totals.csv`).isFile().csvHeader(["month", "orders", "units", "revenue"]).raw(
            [`assert sum(int(row[1]) for row in rows[1:]) == ${rows}`],
            1,
            [`AssertionError: assert 0 == ${rows}`],
          ).build(),
        ]),
        test("test_region_revenue", "Region revenue is valid JSON with every region.", 0, [
          new Part(`${r}/region_revenue.json`).isFile().raw(
            [`data = json.loads(p.read_text())`, `assert all(set(d) == {"region", "revenue"} for d in data)`, `assert len(data) >= 1`],
            2,
            ["json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"],
          ).build(),
        ]),
        test("test_top_products", "Three products, most units first.", 0, [new Part(`${r}/top_products.txt`).isFile().minLines(3).build()]),
        test("test_totals", "Totals match the export.", 0, [new Part(`${r}/totals.txt`).isFile().contains(`orders=${rows}`, "revenue=").build()]),
      ],
      artifacts: [
        { path: `${r}/monthly_totals.csv`, kind: "csv", columns: ["month", "orders", "units", "revenue"] },
        { path: `${r}/region_revenue.json`, kind: "json" },
        { path: `${r}/top_products.txt`, kind: "file" },
        { path: `${r}/totals.txt`, kind: "config" },
      ],
      inputs: [{ path: src, kind: "csv", columns: ["order_id", "date", "region", "product", "units", "unit_price"] }],
      tags: ["csv", "awk", "jq", "reporting"],
    };
  },
};

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
    const script = sh`
      # Normalise raw product events and aggregate them for the growth report.
      SRC=${src}
      OUT=${r}
      mkdir -p "$OUT"
      if [ ! -s "$SRC" ]; then
        echo "no events in $SRC" >&2
        exit 1
      fi
      bad=$(jq -c 'select(.id == null or .type == null)' "$SRC" | wc -l)
      if [ "$bad" -gt 0 ]; then
        echo "$bad events lack id or type" >&2
        exit 1
      fi

      # One canonical shape: lower-case type, date split out, amount as a number or 0.
      jq -c '{
          id,
          type: (.type | ascii_downcase),
          user,
          date: (.ts[0:10]),
          amount: (.amount // 0)
        }' "$SRC" \\
        | sort -u > "$OUT/normalized.jsonl"

      # Counts per type (busiest first) and per day, from the normalised stream.
      jq -s -r '
        group_by(.type)
        | map({type: .[0].type, count: length})
        | sort_by(-.count, .type)[]
        | "\\(.type),\\(.count)"
      ' "$OUT/normalized.jsonl" | sed '1i type,count' > "$OUT/events_by_type.csv"
      jq -s -r 'group_by(.date)[] | "\\(.[0].date) \\(length)"' "$OUT/normalized.jsonl" > "$OUT/daily_counts.txt"

      # Net revenue: purchases minus refunds, plus distinct active users.
      jq -s '{
          purchases: (map(select(.type == "purchase") | .amount) | add // 0),
          refunds: (map(select(.type == "refund") | .amount) | add // 0),
          active_users: (map(.user) | unique | length)
        }
        | .net = .purchases - .refunds' "$OUT/normalized.jsonl" > "$OUT/revenue.json"

      in_count=$(wc -l < "$SRC")
      out_count=$(wc -l < "$OUT/normalized.jsonl")
      if [ "$out_count" -gt "$in_count" ]; then
        echo "normalisation duplicated events" >&2
        exit 1
      fi
      sum=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' "$OUT/events_by_type.csv")
      if [ "$sum" -ne "$out_count" ]; then
        echo "type counts ($sum) do not add up to $out_count" >&2
        exit 1
      fi
      column -t -s, "$OUT/events_by_type.csv"
      tail -n 3 "$OUT/daily_counts.txt"
      echo "normalised $out_count of $in_count events"`;
    return {
      title: `Normalise ${p.app} product events`,
      intro: [
        `Raw product events arrive as JSON Lines in \`${src}\`. Normalise each to \`{id, type, user, date, amount}\` (type lower-case, date as YYYY-MM-DD, missing amount as 0), deduplicated, in \`${r}/normalized.jsonl\`.`,
        "",
        `Then write \`${r}/events_by_type.csv\` (type,count, busiest first), \`${r}/daily_counts.txt\` ("<date> <count>") and \`${r}/revenue.json\` with purchases, refunds, net and active_users.`,
        "",
        "An event without an id or type is an error: stop without writing partial output.",
      ].join("\n"),
      packages: ["jq"],
      fixtures: [{ src: "events.jsonl", dest: src, content: text }],
      script,
      output: ["type,count", `normalised ${n} of ${n} events`],
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
        test("test_daily_counts", "Daily counts are dated.", 0, [new Part(`${r}/daily_counts.txt`).isFile().matches("^2024-03-0[1-7] [0-9]+$", "daily line").build()]),
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
