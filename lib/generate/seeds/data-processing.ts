// Data-processing seeds: sales roll-up, event normalisation. Each section of a seed's solution has
// a few interchangeable implementations picked per seed, so two seeds read like two authors' work.
import { sh } from "../operators/common";
import type { Rng } from "../prng";
import { eventsJsonl, salesCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

/** `column -t`'s layout: every column but the last padded to its widest cell plus two spaces. */
function columnT(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd((widths[i] ?? 0) + 2) : c)).join(""));
}

const money = (cents: number): string => (cents / 100).toFixed(2);

/** How one seed reports a failed check: if-blocks with echo and exit, or a small die() helper. */
export interface FailStyle {
  /** The helper's definition ("" for the if-block style); it goes right after the declarations. */
  helper: string;
  /** The statements that report `msg` (a double-quoted shell string's content) and stop. */
  call(msg: string): string;
  /** Stops unless `ok` holds; `bad` is the same test negated, for the if-block style. */
  check(ok: string, msg: string, bad?: string): string;
}

export function failStyle(rng: Rng): FailStyle {
  const kind = rng.pick(["if", "if", "die", "fail"] as const);
  if (kind === "if") {
    const call = (msg: string) => `echo "${msg}" >&2\nexit 1`;
    return { helper: "", call, check: (ok, msg, bad) => `if ${bad ?? `! ${ok}`}; then\n${call(msg).replace(/^/gm, "  ")}\nfi` };
  }
  const helper = rng.pick([
    `${kind}() { echo "error: $*" >&2; exit 1; }`,
    `${kind}() {\n  printf '%s\\n' "$*" >&2\n  exit 1\n}`,
    `${kind}() { echo "$(basename "$0"): $*" >&2; exit 1; }`,
  ]);
  const call = (msg: string) => `${kind} "${msg}"`;
  return { helper, call, check: (ok, msg) => `${ok} || ${call(msg)}` };
}

interface SalesFacts {
  months: { month: string; orders: number; units: number; cents: number }[];
  regions: { region: string; cents: number }[];
  top: { product: string; units: number }[];
  orders: number;
  cents: number;
}

/** What the roll-up of a generated export comes to, for the seed's printed output. */
function salesFacts(text: string): SalesFacts {
  const months = new Map<string, { orders: number; units: number; cents: number }>();
  const regions = new Map<string, number>();
  const products = new Map<string, number>();
  let orders = 0;
  let cents = 0;
  for (const line of text.split("\n").slice(1)) {
    const [, date = "", region = "", product = "", unitsText = "0", price = "0"] = line.split(",");
    if (line === "") continue;
    const units = Number(unitsText);
    const amount = units * Math.round(Number(price) * 100);
    const m = months.get(date.slice(0, 7)) ?? { orders: 0, units: 0, cents: 0 };
    months.set(date.slice(0, 7), { orders: m.orders + 1, units: m.units + units, cents: m.cents + amount });
    regions.set(region, (regions.get(region) ?? 0) + amount);
    products.set(product, (products.get(product) ?? 0) + units);
    orders++;
    cents += amount;
  }
  return {
    months: [...months].sort(([a], [b]) => a.localeCompare(b)).map(([month, m]) => ({ month, ...m })),
    regions: [...regions].sort(([a], [b]) => a.localeCompare(b)).map(([region, c]) => ({ region, cents: c })),
    top: [...products].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).slice(0, 3).map(([product, units]) => ({ product, units })),
    orders,
    cents,
  };
}

const SALES_HEADER = "order_id,date,region,product,units,unit_price";

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
    const facts = salesFacts(text);
    const v = rng.pick([
      { src: "SRC", out: "OUT", tmp: "tmp" },
      { src: "CSV", out: "REPORTS", tmp: "scratch" },
      { src: "INPUT", out: "DEST", tmp: "work" },
      { src: "sales_csv", out: "report_dir", tmp: "staging" },
    ]);
    const IN = `"$${v.src}"`;
    const at = (file: string): string => `"$${v.out}/${file}"`;
    const M = at("monthly_totals.csv");
    const R = at("region_revenue.json");
    const T = at("top_products.txt");
    const TOT = at("totals.txt");
    const engine = rng.pick(["awk-once", "awk-once", "awk-once", "awk-split", "awk-split", "awk-split", "awk-split", "python", "sqlite"] as const);
    const inShell = engine === "awk-once" || engine === "awk-split";
    // "units product" or "product units" per line of top_products.txt.
    const unitsFirst = rng.chance(0.5);
    const tools = new Set<string>();
    const sections: string[] = [];
    const fail = failStyle(rng);
    if (fail.helper.includes("basename")) tools.add("basename");

    // Declarations, output directory.
    const decl = [`${v.src}=${src}`, `${v.out}=${r}`];
    if (rng.chance(0.4)) decl.reverse();
    const mkdir = rng.pick([`mkdir -p "$${v.out}"`, `install -d -m 0755 "$${v.out}"`, `[ -d "$${v.out}" ] || mkdir -p "$${v.out}"`]);
    sections.push(
      [
        rng.pick([
          "# Roll the raw sales export up by month and region; the finance sheet imports these files.",
          "# Finance roll-ups (monthly, regional, best sellers, totals) from the raw sales export.",
          "# Aggregate the sales CSV for the finance workbook; the export itself is read-only.",
          "# Monthly and regional sales roll-up. The export may carry CRLF line endings.",
        ]),
        ...decl,
        ...(fail.helper === "" ? [] : [fail.helper]),
        mkdir,
      ].join("\n"),
    );
    // Optionally, a fingerprint of the export to prove at the end that it was left alone.
    const guard = rng.pick([
      null,
      null,
      { take: `before=$(sha256sum < ${IN})`, ok: `[ "$(sha256sum < ${IN})" = "$before" ]`, bad: `[ "$(sha256sum < ${IN})" != "$before" ]`, tool: "sha256sum" },
      { take: `before=$(cksum < ${IN})`, ok: `[ "$(cksum < ${IN})" = "$before" ]`, bad: `[ "$(cksum < ${IN})" != "$before" ]`, tool: "cksum" },
      { take: `export_sum=$(md5sum ${IN} | cut -d' ' -f1)`, ok: `[ "$(md5sum ${IN} | cut -d' ' -f1)" = "$export_sum" ]`, bad: `[ "$(md5sum ${IN} | cut -d' ' -f1)" != "$export_sum" ]`, tool: "md5sum" },
    ]);
    if (guard) {
      sections[sections.length - 1] += `\n${guard.take}`;
      tools.add(guard.tool);
      if (guard.take.includes("cut")) tools.add("cut");
    }

    // Header check: the python engines check it themselves while reading.
    if (inShell) {
      sections.push(
        rng.pick([
          [
            `EXPECTED_HEADER="${SALES_HEADER}"`,
            `header=$(head -n 1 ${IN} | tr -d '\\r')`,
            fail.check(`[ "$header" = "$EXPECTED_HEADER" ]`, "unexpected header: $header", `[ "$header" != "$EXPECTED_HEADER" ]`),
          ].join("\n"),
          [
            `IFS= read -r first_line < ${IN}`,
            `case "\${first_line%$'\\r'}" in`,
            `  ${SALES_HEADER}) ;;`,
            "  *)",
            fail.call(`$${v.src}: header is '$first_line', not the sales export columns`).replace(/^/gm, "    "),
            "    ;;",
            "esac",
          ].join("\n"),
          fail.check(`head -n 1 ${IN} | tr -d '\\r' | grep -qx '${SALES_HEADER}'`, `$${v.src} does not start with the expected sales header`),
        ]),
      );
    }

    // Where the shell engines read rows from: a CRLF-free scratch copy, or the export itself
    // (streamed through tr/sed by the one-pass engine; the split engine strips the CR in awk).
    let body = "";
    let scratch = "";
    if (inShell) {
      if (rng.chance(0.5)) {
        const cleaner = rng.pick([`sed 's/\\r$//' ${IN}`, `tr -d '\\r' < ${IN}`]);
        sections.push(
          [
            rng.pick(["# Work on a copy without carriage returns; the export stays untouched.", "# Strip CRLF into a scratch copy once instead of in every pipeline."]),
            `${v.tmp}=$(mktemp -d)`,
            `trap 'rm -rf "$${v.tmp}"' EXIT`,
            `${cleaner} > "$${v.tmp}/sales.csv"`,
          ].join("\n"),
        );
        tools.add(cleaner.startsWith("sed") ? "sed" : "tr").add("mktemp");
        body = `tail -n +2 "$${v.tmp}/sales.csv"`;
        scratch = `$${v.tmp}`;
      } else {
        body = rng.pick([`tail -n +2 ${IN} | tr -d '\\r'`, `tr -d '\\r' < ${IN} | tail -n +2`, `sed '1d; s/\\r$//' ${IN}`]);
        tools.add(body.startsWith("sed") ? "sed" : "tr");
        scratch = `$${v.out}`;
      }
    }

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
    if (!inShell && rng.chance(0.5)) {
      // Some authors keep the Python in a throwaway file rather than feeding it on stdin.
      const name = rng.pick(["helper", "rollup_py", "script"]);
      const last = sections.length - 1;
      sections[last] = (sections[last] ?? "")
        .replace("python3 - <<'PY'", [`${name}=$(mktemp --suffix=.py)`, `trap 'rm -f "$${name}"' EXIT`, `cat > "$${name}" <<'PY'`].join("\n"))
        .replace(/\nPY$/, `\nPY\npython3 "$${name}"`);
      tools.add("mktemp").add("cat");
    }
    if (!inShell) {
      // A shell-side look at what Python wrote: months in order, exactly three best sellers.
      const sorted = fail.check(`tail -n +2 ${M} | cut -d, -f1 | sort -c`, "monthly_totals.csv is not in month order");
      const three = rng.pick([
        fail.check(`[ "$(wc -l < ${T})" -eq 3 ]`, `expected three best sellers in $${v.out}/top_products.txt`, `[ "$(wc -l < ${T})" -ne 3 ]`),
        [`listed=$(grep -c . ${T} || true)`, fail.check(`[ "$listed" -eq 3 ]`, "top_products.txt lists $listed products, expected 3", `[ "$listed" -ne 3 ]`)].join("\n"),
      ]);
      sections.push(rng.shuffle([sorted, three]).join("\n"));
      ["tail", "cut", "sort", three.includes("wc") ? "wc" : "grep"].forEach((t) => tools.add(t));
    }

    // Orders in the export, and the check that the monthly rows account for all of them.
    const ordersLine = rng.pick([
      `orders=$(($(wc -l < ${IN}) - 1))`,
      `orders=$(awk 'END { print NR - 1 }' ${IN})`,
      `orders=$(tail -n +2 ${IN} | grep -c .)`,
    ]);
    tools.add(ordersLine.includes("wc") ? "wc" : ordersLine.includes("grep") ? "grep" : "awk");
    const check = rng.pick([
      [
        `summed=$(awk -F, 'NR > 1 { s += $2 } END { print s + 0 }' ${M})`,
        fail.check(`[ "$orders" -eq "$summed" ]`, "monthly totals cover $summed of $orders orders", `[ "$orders" -ne "$summed" ]`),
      ].join("\n"),
      [
        `covered=$(( $(tail -n +2 ${M} | cut -d, -f2 | paste -sd+ -) ))`,
        fail.check("(( covered == orders ))", "monthly rows count $covered orders, the export has $orders", "(( covered != orders ))"),
      ].join("\n"),
      fail.check(
        `[ "$(awk -F, 'NR > 1 { n += $2 } END { print n + 0 }' ${M})" = "$orders" ]`,
        `order count mismatch between $${v.src} and monthly_totals.csv`,
        `[ "$(awk -F, 'NR > 1 { n += $2 } END { print n + 0 }' ${M})" != "$orders" ]`,
      ),
    ]);
    if (check.includes("paste")) ["tail", "cut", "paste"].forEach((t) => tools.add(t));
    else tools.add("awk");
    const revenueLine = rng.pick([
      `revenue=$(printf '%.2f' "$(jq '[.[].revenue] | add' ${R})")`,
      `revenue=$(awk -F, 'NR > 1 { s += $4 } END { printf "%.2f", s }' ${M})`,
      `revenue=$(python3 -c 'import json, sys; print("%.2f" % sum(d["revenue"] for d in json.load(open(sys.argv[1]))))' ${R})`,
    ]);
    tools.add(revenueLine.includes("jq") ? "jq" : revenueLine.includes("python3") ? "python3" : "awk");
    const writeTotals = rng.pick([
      sh`
        cat > ${TOT} <<EOF
        orders=$orders
        revenue=$revenue
        EOF`,
      `printf 'orders=%d\\nrevenue=%s\\n' "$orders" "$revenue" > ${TOT}`,
      sh`
        {
          echo "orders=$orders"
          echo "revenue=$revenue"
        } > ${TOT}`,
      `printf 'orders=%d\\nrevenue=%s\\n' "$orders" "$revenue" | tee ${TOT}`,
    ]);
    if (writeTotals.startsWith("cat")) tools.add("cat");
    if (writeTotals.includes("tee")) tools.add("tee");
    sections.push([rng.pick(["", "# Totals, after checking every order landed in a month.\n"]) + ordersLine, check, revenueLine, writeTotals].join("\n"));

    // JSON sanity check.
    const validate = rng.pick([
      `python3 -c "import json, sys; json.load(open(sys.argv[1]))" ${R}`,
      `jq -e 'length > 0' ${R} > /dev/null`,
      `python3 -m json.tool ${R} > /dev/null`,
      `jq empty ${R}`,
    ]);
    if (validate !== "") tools.add(validate.startsWith("jq") ? "jq" : "python3");

    // What the run prints.
    const output: string[] = writeTotals.includes("tee") ? [`orders=${facts.orders}`, `revenue=${money(facts.cents)}`] : [];
    const show = rng.pick(["column", "column", "regions", "loop", "top"] as const);
    const monthRows = facts.months.map((m) => [m.month, String(m.orders), String(m.units), money(m.cents)]);
    let display = "";
    if (show === "column") {
      display = `column -s, -t ${M}`;
      tools.add("column");
      output.push(...columnT([["month", "orders", "units", "revenue"], ...monthRows]));
    } else if (show === "regions") {
      display = `jq -r '.[] | "\\(.region): \\(.revenue)"' ${R}`;
      tools.add("jq");
      output.push(...facts.regions.map((g) => `${g.region}: ${Number(money(g.cents))}`));
    } else if (show === "loop") {
      display = sh`
        while IFS=, read -r month count units amount; do
          printf '%s  %3d orders  %5d units  %10s\\n' "$month" "$count" "$units" "$amount"
        done < <(tail -n +2 ${M})`;
      tools.add("tail");
      output.push(...monthRows.map(([m, c, u, rev]) => `${m}  ${c?.padStart(3)} orders  ${u?.padStart(5)} units  ${rev?.padStart(10)}`));
    } else {
      display = `cat ${T}`;
      tools.add("cat");
      output.push(...facts.top.map((t) => (unitsFirst ? `${t.units} ${t.product}` : `${t.product} ${t.units}`)));
    }
    const closing = rng.pick([
      {
        text: sh`
          months=$(tail -n +2 ${M} | cut -d, -f1 | paste -sd, -)
          echo "rolled up $orders orders ($months)"`,
        out: `rolled up ${facts.orders} orders (${facts.months.map((m) => m.month).join(",")})`,
        tools: ["tail", "cut", "paste"],
      },
      { text: `echo "wrote the roll-ups for $orders orders to ${"$"}${v.out} (revenue $revenue)"`, out: `wrote the roll-ups for ${facts.orders} orders to ${r} (revenue ${money(facts.cents)})`, tools: [] },
      { text: `printf '%d orders, %s total revenue, %d months\\n' "$orders" "$revenue" "$(($(wc -l < ${M}) - 1))"`, out: `${facts.orders} orders, ${money(facts.cents)} total revenue, ${facts.months.length} months`, tools: ["wc"] },
      {
        text: sh`
          echo "roll-ups for $orders orders:"
          ls -1 "${"$"}${v.out}"`,
        out: [`roll-ups for ${facts.orders} orders:`, "monthly_totals.csv", "region_revenue.json", "top_products.txt", "totals.txt"].join("\n"),
        tools: ["ls"],
      },
    ]);
    closing.tools.forEach((t) => tools.add(t));
    output.push(...closing.out.split("\n"));
    const untouched = guard ? fail.check(guard.ok, "the export changed while it was being read", guard.bad) : "";
    sections.push([validate, untouched, display, closing.text].filter((s) => s !== "").join("\n"));
    const script = sections.join("\n\n");

    const intro = rng.pick([
      `\`${src}\` is a raw sales export (order_id, date, region, product, units, unit_price). Build the finance roll-ups:`,
      `The finance team's raw sales export is \`${src}\`, with columns order_id, date, region, product, units and unit_price. Produce these roll-ups:`,
      `Roll up the sales export in \`${src}\` (columns order_id, date, region, product, units, unit_price) into four files:`,
    ]);
    const strictTop = rng.chance(0.4);
    const checkMonths = rng.chance(0.4);
    const packages = [...(tools.has("jq") ? ["jq"] : []), ...(tools.has("awk") ? ["gawk"] : []), ...(tools.has("column") ? ["bsdextrautils"] : [])];
    return {
      title: rng.pick([`Roll up ${p.app} sales by month and region`, `Monthly and regional ${p.app} sales roll-ups`, `Summarise the ${p.app} sales export for finance`]),
      intro: [
        intro,
        "",
        `- \`${r}/monthly_totals.csv\` with header \`month,orders,units,revenue\`, one row per YYYY-MM, revenue to two decimals`,
        `- \`${r}/region_revenue.json\`: a list of \`{"region", "revenue"}\` objects`,
        `- \`${r}/top_products.txt\`: the three best-selling products by units${strictTop ? ", one per line" : ""}`,
        `- \`${r}/totals.txt\` with orders= and revenue= lines`,
        "",
        rng.pick(["Rows may end with CRLF line endings; never modify the export itself.", "Some rows end in CRLF. Leave the export itself unchanged."]),
      ].join("\n"),
      packages,
      fixtures: [{ src: "sales.csv", dest: src, content: text }],
      script,
      output,
      tests: [
        fixtureIntact(src, lineCount(text)),
        test("test_monthly_totals", "Monthly totals cover every order.", 0, [
          new Part(`${r}/monthly_totals.csv`).isFile().csvHeader(["month", "orders", "units", "revenue"]).raw(
            [`assert sum(int(row[1]) for row in rows[1:]) == ${rows}`, ...(checkMonths ? [`assert all(re.fullmatch(r"\\d{4}-\\d{2}", row[0]) for row in rows[1:])`] : [])],
            checkMonths ? 2 : 1,
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
        test("test_top_products", "Three products, most units first.", 0, [
          strictTop
            ? new Part(`${r}/top_products.txt`).isFile().raw([`assert len(p.read_text().splitlines()) == 3`], 1, ["AssertionError: assert 0 == 3"]).build()
            : new Part(`${r}/top_products.txt`).isFile().minLines(3).build(),
        ]),
        test("test_totals", "Totals match the export.", 0, [new Part(`${r}/totals.txt`).isFile().contains(`orders=${rows}`, "revenue=").build()]),
      ],
      artifacts: [
        { path: `${r}/monthly_totals.csv`, kind: "csv", columns: ["month", "orders", "units", "revenue"] },
        { path: `${r}/region_revenue.json`, kind: "json" },
        { path: `${r}/top_products.txt`, kind: "file" },
        { path: `${r}/totals.txt`, kind: "config" },
      ],
      inputs: [{ path: src, kind: "csv", columns: ["order_id", "date", "region", "product", "units", "unit_price"] }],
      tags: ["csv", inShell ? "awk" : "python", "jq", "reporting"],
    };
  },
};

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

/** Picks one implementation of a section, with the tools it runs. */
function variant(rng: Rng, tools: Set<string>, options: readonly (readonly [string, readonly string[]])[]): string {
  const [text, used] = rng.pick(options);
  used.forEach((t) => tools.add(t));
  return text;
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

    // Aggregates: per type, per day, revenue; any order.
    const csvHeaderFirst = rng.chance(0.5);
    const byType = variant(rng, tools, [
      [
        sh`
          # Counts per type, busiest first.
          jq -s -r '
            group_by(.type)
            | map({type: .[0].type, count: length})
            | sort_by(-.count, .type)[]
            | "\\(.type),\\(.count)"
          ' ${N} | sed '1i type,count' > ${C}`,
        ["jq", "sed"],
      ],
      [
        csvHeaderFirst
          ? sh`
              echo "type,count" > ${C}
              jq -r '.type' ${N} | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 "," $1 }' >> ${C}`
          : sh`
              {
                echo "type,count"
                jq -r '.type' ${N} | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{ print $2 "," $1 }'
              } > ${C}`,
        ["jq", "sort", "uniq", "awk"],
      ],
      [
        sh`
          # type,count with the busiest type on top.
          printf 'type,count\\n' > ${C}
          jq -r '.type' ${N} | awk '
            { n[$0]++ }
            END {
              for (t in n)
                print t "," n[t]
            }
          ' | sort -t, -k2,2nr -k1,1 >> ${C}`,
        ["jq", "awk", "sort"],
      ],
    ]);
    const daily = variant(rng, tools, [
      [
        sh`
          # One "<date> <count>" line per day, oldest first.
          jq -s -r '
            group_by(.date)[]
            | "\\(.[0].date) \\(length)"
          ' ${N} > ${D}`,
        ["jq"],
      ],
      [`jq -r '.date' ${N} | sort | uniq -c | awk '{ print $2, $1 }' > ${D}`, ["jq", "sort", "uniq", "awk"]],
      [
        sh`
          while read -r count day; do
            echo "$day $count"
          done < <(jq -r '.date' ${N} | sort | uniq -c) > ${D}`,
        ["jq", "sort", "uniq"],
      ],
    ]);
    const revenue = variant(rng, tools, [
      [
        sh`
          # Net revenue: purchases minus refunds, plus distinct active users.
          jq -s '{
              purchases: (map(select(.type == "purchase") | .amount) | add // 0),
              refunds: (map(select(.type == "refund") | .amount) | add // 0),
              active_users: (map(.user) | unique | length)
            }
            | .net = .purchases - .refunds' ${N} > ${R}`,
        ["jq"],
      ],
      [
        sh`
          jq -s '
            (map(select(.type == "purchase").amount) | add // 0) as $in
            | (map(select(.type == "refund").amount) | add // 0) as $out
            | {purchases: $in, refunds: $out, net: ($in - $out), active_users: (map(.user) | unique | length)}
          ' ${N} > ${R}`,
        ["jq"],
      ],
      [
        sh`
          # Revenue figures into shell variables, assembled with --argjson so they stay numbers.
          read -r purchases refunds users < <(jq -s -r '[
              (map(select(.type == "purchase") | .amount) | add // 0),
              (map(select(.type == "refund") | .amount) | add // 0),
              (map(.user) | unique | length)
            ] | @tsv' ${N})
          jq -n --argjson p "$purchases" --argjson r "$refunds" --argjson u "$users" \\
            '{purchases: $p, refunds: $r, net: ($p - $r), active_users: $u}' > ${R}`,
        ["jq"],
      ],
      [
        sh`
          jq -r '[.type, .amount, .user] | @tsv' ${N} | awk -F'\\t' '
            $1 == "purchase" { bought += $2 }
            $1 == "refund" { returned += $2 }
            !($3 in users) { users[$3] = 1; active++ }
            END { printf "{\\"purchases\\": %s, \\"refunds\\": %s, \\"net\\": %s, \\"active_users\\": %d}\\n", bought + 0, returned + 0, bought - returned, active }
          ' > ${R}`,
        ["jq", "awk"],
      ],
    ]);
    sections.push(...rng.shuffle([byType, daily, revenue]));

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
