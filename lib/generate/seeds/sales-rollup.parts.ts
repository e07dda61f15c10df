// sales-rollup's aggregation: the monthly, regional and best-seller files from one of four engines
// (one awk pass, separate awk programs, Python's csv module, or SQLite in Python).
import { sh } from "../operators/common";
import type { Rng } from "../prng";

export const SALES_HEADER = "order_id,date,region,product,units,unit_price";

/** What the engines take from the rest of the script. */
export interface EngineInputs {
  engine: "awk-once" | "awk-split" | "python" | "sqlite";
  /** "units product" or "product units" per line of top_products.txt. */
  unitsFirst: boolean;
  /** The shell engines' rows: a pipeline without the header and CRs, and where scratch files go. */
  body: string;
  scratch: string;
  /** The script's variable names, and its spellings of the input and the three reports. */
  v: { src: string; out: string; tmp: string };
  IN: string;
  M: string;
  R: string;
  T: string;
  /** The export's and the reports' directory's paths, for the Python engines. */
  src: string;
  r: string;
}

/** The sections that write monthly_totals.csv, region_revenue.json and top_products.txt; adds the tools they run. */
export function engineSections(rng: Rng, { engine, unitsFirst, body, scratch, v, IN, M, R, T, src, r }: EngineInputs, tools: Set<string>): string[] {
  const sections: string[] = [];
  const topSort = unitsFirst ? "sort -k1,1nr -k2,2" : "sort -k2,2nr -k1,1";
  const topPrint = unitsFirst ? "print u[p], p" : "print p, u[p]";
  if (engine === "awk-once") {
    const products = unitsFirst ? `printf "%d %s\\n", product[p], p` : `printf "%s %d\\n", p, product[p]`;
    const regionsJq = rng.pick([
      sh`
        sort "${scratch}/regions.tmp" | jq -R -s '
          split("\\n")
          | map(select(length > 0) | split("\\t"))
          | map({region: .[0], revenue: (.[1] | tonumber)})
        ' > ${R}`,
      sh`
        sort "${scratch}/regions.tmp" \\
          | jq -R -n '[inputs | split("\\t") | {region: .[0], revenue: (.[1] | tonumber)}]' > ${R}`,
    ]);
    sections.push(
      [
        sh`
          # One pass: monthly, regional and per-product aggregates into scratch files.
          ${body} | awk -F, -v dir="${scratch}" '
            {
              month = substr($2, 1, 7)
              orders[month]++
              units[month] += $5
              revenue[month] += $5 * $6
              region[$3] += $5 * $6
              product[$4] += $5
            }
            END {
              for (m in orders) printf "%s,%d,%d,%.2f\\n", m, orders[m], units[m], revenue[m] > (dir "/months.tmp")
              for (g in region) printf "%s\\t%.2f\\n", g, region[g] > (dir "/regions.tmp")
              for (p in product) ${products} > (dir "/products.tmp")
            }'`,
        "",
        sh`
          echo "month,orders,units,revenue" > ${M}
          sort -t, -k1,1 "${scratch}/months.tmp" >> ${M}`,
        regionsJq,
        `${topSort} "${scratch}/products.tmp" | head -n 3 > ${T}`,
        ...(scratch === `$${v.out}` ? [`rm -f "$${v.out}"/*.tmp`] : []),
      ].join("\n"),
    );
    ["awk", "sort", "jq", "head", "tail", "rm"].forEach((t) => tools.add(t));
  } else if (engine === "awk-split") {
    // Separate awk programs read the file directly; on the raw export the monthly one strips
    // the CR itself (the others only use numeric and middle fields, which a CR cannot upset).
    const file = scratch === `$${v.out}` ? IN : `"$${v.tmp}/sales.csv"`;
    const strip = file === IN ? ['  { sub(/\\r$/, "") }'] : [];
    const monthly = rng.pick([
      [
        "# Monthly rows: orders, units and revenue per YYYY-MM.",
        "{",
        '  echo "month,orders,units,revenue"',
        "  awk -F, '",
        "    NR == 1 { next }",
        ...strip.map((l) => `  ${l}`),
        "    { m = substr($2, 1, 7); n[m]++; u[m] += $5; r[m] += $5 * $6 }",
        '    END { for (m in n) printf "%s,%d,%d,%.2f\\n", m, n[m], u[m], r[m] }',
        `  ' ${file} | sort`,
        `} > ${M}`,
      ].join("\n"),
      [
        "# Per-month orders, units and revenue; gawk walks the months in order itself.",
        "gawk -F, '",
        '  BEGIN { PROCINFO["sorted_in"] = "@ind_str_asc"; print "month,orders,units,revenue" }',
        "  FNR == 1 { next }",
        ...strip,
        "  {",
        "    month = substr($2, 1, 7)",
        "    count[month]++",
        "    qty[month] += $5",
        "    amount[month] += $5 * $6",
        "  }",
        '  END { for (month in count) printf "%s,%d,%d,%.2f\\n", month, count[month], qty[month], amount[month] }',
        `' ${file} > ${M}`,
      ].join("\n"),
    ]);
    const regions = rng.pick([
      sh`
        # Revenue per region as a JSON list.
        awk -F, 'NR > 1 { r[$3] += $5 * $6 } END { for (g in r) printf "%s\\t%.2f\\n", g, r[g] }' ${file} \\
          | sort \\
          | jq -R -n '[inputs | split("\\t") | {region: .[0], revenue: (.[1] | tonumber)}]' > ${R}`,
      sh`
        # Region revenue, then a JSON array of {region, revenue} objects.
        awk -F, 'FNR > 1 { total[$3] += $5 * $6 } END { for (k in total) printf "%s,%.2f\\n", k, total[k] }' ${file} \\
          | sort -t, -k1,1 \\
          | jq -R -s 'split("\\n") | map(select(. != "") | split(",") | {region: .[0], revenue: (.[1] | tonumber)})' > ${R}`,
    ]);
    const top = sh`
      # The three best sellers by units.
      awk -F, 'NR > 1 { u[$4] += $5 } END { for (p in u) ${topPrint} }' ${file} \\
        | ${topSort} \\
        | head -n 3 > ${T}`;
    sections.push(...rng.shuffle([monthly, regions, top]));
    ["awk", "sort", "jq", "head"].forEach((t) => tools.add(t));
  } else if (engine === "python") {
    const line = unitsFirst ? `f"{units} {name}\\n"` : `f"{name} {units}\\n"`;
    sections.push(sh`
      # The csv module copes with CRLF rows; write the three aggregate files from one read.
      python3 - <<'PY'
      import csv
      import json
      import sys
      from collections import defaultdict

      months = defaultdict(lambda: [0, 0, 0.0])
      regions = defaultdict(float)
      products = defaultdict(int)
      with open("${src}", newline="") as fh:
          reader = csv.DictReader(fh)
          if reader.fieldnames != ${JSON.stringify(SALES_HEADER.split(",")).replace(/,/g, ", ")}:
              sys.exit(f"unexpected header: {reader.fieldnames}")
          for row in reader:
              units = int(row["units"])
              amount = units * float(row["unit_price"])
              bucket = months[row["date"][:7]]
              bucket[0] += 1
              bucket[1] += units
              bucket[2] += amount
              regions[row["region"]] += amount
              products[row["product"]] += units

      with open("${r}/monthly_totals.csv", "w", newline="") as fh:
          writer = csv.writer(fh, lineterminator="\\n")
          writer.writerow(["month", "orders", "units", "revenue"])
          for month in sorted(months):
              orders, units, revenue = months[month]
              writer.writerow([month, orders, units, f"{revenue:.2f}"])

      with open("${r}/region_revenue.json", "w") as fh:
          json.dump([{"region": k, "revenue": round(v, 2)} for k, v in sorted(regions.items())], fh, indent=2)

      ranked = sorted(products.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
      with open("${r}/top_products.txt", "w") as fh:
          fh.writelines(${line} for name, units in ranked)
      PY`);
    tools.add("python3");
  } else {
    const fmt = unitsFirst ? `f"{n} {product}\\n"` : `f"{product} {n}\\n"`;
    sections.push(sh`
      # Load the export into an in-memory SQLite table and let GROUP BY do the roll-ups.
      python3 - <<'PY'
      import csv
      import json
      import sqlite3

      db = sqlite3.connect(":memory:")
      db.execute("CREATE TABLE sales (order_id TEXT, day TEXT, region TEXT, product TEXT, units INTEGER, price REAL)")
      with open("${src}", newline="") as fh:
          rows = csv.reader(fh)
          header = next(rows)
          if header != ${JSON.stringify(SALES_HEADER.split(",")).replace(/,/g, ", ")}:
              raise SystemExit(f"unexpected header: {header}")
          db.executemany("INSERT INTO sales VALUES (?, ?, ?, ?, ?, ?)", rows)

      monthly = db.execute(
          "SELECT substr(day, 1, 7) AS month, count(*), sum(units), printf('%.2f', sum(units * price))"
          " FROM sales GROUP BY month ORDER BY month"
      ).fetchall()
      with open("${r}/monthly_totals.csv", "w", newline="") as fh:
          writer = csv.writer(fh, lineterminator="\\n")
          writer.writerow(["month", "orders", "units", "revenue"])
          writer.writerows(monthly)

      regions = db.execute("SELECT region, round(sum(units * price), 2) FROM sales GROUP BY region ORDER BY region")
      with open("${r}/region_revenue.json", "w") as fh:
          json.dump([{"region": name, "revenue": total} for name, total in regions], fh, indent=2)

      top = db.execute("SELECT product, sum(units) AS n FROM sales GROUP BY product ORDER BY n DESC, product LIMIT 3")
      with open("${r}/top_products.txt", "w") as fh:
          for product, n in top:
              fh.write(${fmt})
      PY`);
    tools.add("python3");
  }
  return sections;
}
