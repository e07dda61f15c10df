// Data-processing seed: roll a raw sales CSV export up by month, region and best seller for
// finance; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { columnT, failStyle } from "./compose";
import { salesCsv } from "./data";
import { engineSections, SALES_HEADER } from "./sales-rollup.parts";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

const money = (cents: number): string => (cents / 100).toFixed(2);

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

    // The aggregates, from one of four engines (sales-rollup.parts.ts).
    sections.push(...engineSections(rng, { engine, unitsFirst, body, scratch, v, IN, M, R, T, src, r }, tools));
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
