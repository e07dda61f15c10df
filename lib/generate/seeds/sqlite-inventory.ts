// Database seed: load product and stock-movement CSVs into SQLite (tables, index, stock view) and
// export what needs reordering; every section has per-seed variants (compose.ts).
import { sh } from "../operators/common";
import { choose, joinLines, noBlank } from "./compose";
import { productsCsv, stockMovesCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

/** on_hand per SKU, as the stock view computes it from the seed's fixtures. */
function stockLevels(products: string, moves: string): { sku: string; reorder: number; onHand: number }[] {
  const onHand = new Map<string, number>();
  for (const row of moves.split("\n").slice(1)) {
    const [sku, , qty] = row.split(",");
    if (sku) onHand.set(sku, (onHand.get(sku) ?? 0) + Number(qty));
  }
  return products
    .split("\n")
    .slice(1)
    .filter((r) => r !== "")
    .map((r) => {
      const [sku = "", , , level] = r.split(",");
      return { sku, reorder: Number(level), onHand: onHand.get(sku) ?? 0 };
    });
}

export const sqliteInventory: SeedTemplate = {
  id: "sqlite-inventory",
  category: "databases",
  image: "ubuntu:24.04",
  difficulty: "medium",
  build(rng, p) {
    const skus = rng.int(8, 15);
    const products = productsCsv(rng, skus);
    const moves = stockMovesCsv(rng, rng.int(30, 60), skus);
    const db = `${p.root}/inventory.db`;
    const low = `${p.reportDir}/low_stock.csv`;
    const cats = `${p.reportDir}/categories.txt`;
    const levels = stockLevels(products, moves);
    const lowCount = levels.filter((s) => s.onHand < s.reorder).length;
    const moveCount = lineCount(moves) - 1;

    const n = rng.pick([
      { db: "DB", data: "DATA", out: "OUT", np: "products", nm: "moves" },
      { db: "DB_FILE", data: "SRC", out: "REPORTS", np: "n_products", nm: "n_moves" },
      { db: "DBPATH", data: "INPUT", out: "DEST", np: "product_rows", nm: "move_rows" },
    ]);
    const D = `"$${n.db}"`;
    const namedOut = rng.chance(0.5);
    const LOW = namedOut ? `"$${n.out}/low_stock.csv"` : low;
    const CATS = namedOut ? `"$${n.out}/categories.txt"` : cats;
    const staged = rng.chance(0.3);
    const T = staged ? `"$STAGE"` : D;
    const src = (f: string) => `"$${n.data}/${f}"`;
    const idx = rng.pick(["idx_moves_sku", "stock_moves_sku_idx", "ix_stock_moves_sku"]);
    const indexLater = rng.chance(0.5);

    const header = rng.pick([
      "# Load products and stock movements into SQLite and flag what needs reordering.",
      `# Rebuild the ${p.app} inventory database from the CSV exports, then report low stock.`,
      "# Inventory: CSV -> SQLite (tables, index, on-hand view), then two small reports.",
    ]);
    const vars = rng.shuffle([`${n.db}=${db}`, `${n.data}=${p.dataDir}`, ...(namedOut ? [`${n.out}=${p.reportDir}`] : [])]);
    const mkdir = rng.pick([`mkdir -p ${namedOut ? `"$${n.out}"` : p.reportDir}`, `install -d -m 0755 ${p.reportDir}`]);
    const fresh = staged
      ? rng.pick([
          joinLines(`# Build next to the live file and swap it in once it checks out.`, `STAGE="$${n.db}.new"`, `rm -f "$STAGE"`),
          joinLines(`STAGE="$${n.db}.tmp"`, `trap 'rm -f "$STAGE"' EXIT`, `rm -f "$STAGE"`),
        ])
      : rng.pick([`rm -f ${D}`, joinLines(`# Start from an empty file so a rebuild gives the same result.`, `rm -f ${D} ${D.slice(0, -1)}-journal"`), sh`
          if [ -e ${D} ]; then
            rm -- ${D}
          fi`]);

    const indexSql = `CREATE INDEX ${idx} ON stock_moves(sku);`;
    const schema = noBlank(choose(rng, [
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE TABLE products (
          sku TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          category TEXT,
          reorder_level INTEGER NOT NULL
        );
        CREATE TABLE stock_moves (
          sku TEXT NOT NULL REFERENCES products(sku),
          moved_at TEXT NOT NULL,
          quantity INTEGER NOT NULL
        );
        ${indexLater ? "" : indexSql}
        SQL`,
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE TABLE products (sku TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, reorder_level INTEGER NOT NULL CHECK (reorder_level >= 0));
        CREATE TABLE stock_moves (sku TEXT NOT NULL REFERENCES products (sku), moved_at TEXT NOT NULL, quantity INTEGER NOT NULL);
        ${indexLater ? "" : indexSql}
        SQL`,
      () => sh`
        cat > /tmp/inventory-schema.sql <<'SQL'
        create table products (
            sku           text primary key,
            name          text not null,
            category      text not null,
            reorder_level integer not null
        );
        create table stock_moves (
            sku      text not null references products (sku),
            moved_at text not null,
            quantity integer not null
        );
        ${indexLater ? "" : `create index ${idx} on stock_moves (sku);`}
        SQL
        ${rng.pick([`sqlite3 ${T} < /tmp/inventory-schema.sql`, `sqlite3 ${T} ".read /tmp/inventory-schema.sql"`])}`,
    ]));

    const load = choose(rng, [
      () => joinLines(`sqlite3 ${T} ".import --csv --skip 1 ${src("products.csv").slice(1, -1)} products"`, `sqlite3 ${T} ".import --csv --skip 1 ${src("stock_moves.csv").slice(1, -1)} stock_moves"`),
      () => sh`
        sqlite3 ${T} <<SQL
        .mode csv
        .import --skip 1 $${n.data}/products.csv products
        .import --skip 1 $${n.data}/stock_moves.csv stock_moves
        SQL`,
      () => sh`
        # Import into scratch tables (header row = column names), then copy with explicit casts.
        sqlite3 ${T} <<SQL
        .import --csv $${n.data}/products.csv products_raw
        .import --csv $${n.data}/stock_moves.csv moves_raw
        INSERT INTO products SELECT sku, name, category, CAST(reorder_level AS INTEGER) FROM products_raw;
        INSERT INTO stock_moves SELECT sku, moved_at, CAST(quantity AS INTEGER) FROM moves_raw;
        DROP TABLE products_raw;
        DROP TABLE moves_raw;
        SQL`,
    ]);
    const index = indexLater ? rng.pick([`sqlite3 ${T} "${indexSql}"`, `sqlite3 ${T} "CREATE INDEX IF NOT EXISTS ${idx} ON stock_moves (sku);"`]) : null;

    const view = choose(rng, [
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE VIEW stock AS
          SELECT p.sku, p.name, p.reorder_level, COALESCE(SUM(m.quantity), 0) AS on_hand
          FROM products p
          LEFT JOIN stock_moves m ON m.sku = p.sku
          GROUP BY p.sku;
        SQL`,
      () => `sqlite3 ${T} "CREATE VIEW stock AS SELECT p.sku, p.name, p.reorder_level, IFNULL((SELECT SUM(m.quantity) FROM stock_moves m WHERE m.sku = p.sku), 0) AS on_hand FROM products p;"`,
      () => sh`
        sqlite3 ${T} <<'SQL'
        CREATE VIEW stock AS
        WITH totals AS (
          SELECT sku, SUM(quantity) AS qty FROM stock_moves GROUP BY sku
        )
        SELECT p.sku, p.name, p.category, p.reorder_level, COALESCE(t.qty, 0) AS on_hand
        FROM products AS p
        LEFT JOIN totals AS t USING (sku);
        SQL`,
    ]);
    const viewFirst = rng.chance(0.4);

    const NP = n.np;
    const NM = n.nm;
    const counts = choose(rng, [
      () => sh`
        ${NP}=$(sqlite3 ${T} "SELECT COUNT(*) FROM products;")
        ${NM}=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves;")
        expected=$(($(wc -l < ${src("stock_moves.csv")}) - 1))
        if [ "$${NM}" -ne "$expected" ]; then
          echo "imported $${NM} of $expected movements" >&2
          exit 1
        fi`,
      () => sh`
        read -r ${NP} ${NM} <<< "$(sqlite3 -separator ' ' ${T} 'SELECT (SELECT COUNT(*) FROM products), (SELECT COUNT(*) FROM stock_moves);')"
        csv_rows=$(tail -n +2 ${src("stock_moves.csv")} | wc -l)
        [ "$${NM}" -eq "$csv_rows" ] || { echo "stock_moves has $${NM} rows, the CSV $csv_rows" >&2; exit 1; }`,
      () => sh`
        for table in products stock_moves; do
          want=$(awk 'END { print NR - 1 }' "$${n.data}/$table.csv")
          got=$(sqlite3 ${T} "SELECT COUNT(*) FROM $table;")
          if [ "$got" != "$want" ]; then
            echo "$table: loaded $got of $want rows" >&2
            exit 1
          fi
        done
        ${NP}=$(($(wc -l < ${src("products.csv")}) - 1))
        ${NM}=$(($(wc -l < ${src("stock_moves.csv")}) - 1))`,
    ]);
    const orphans = rng.pick([
      sh`
        orphans=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves WHERE sku NOT IN (SELECT sku FROM products);")
        [ "$orphans" -eq 0 ] || { echo "$orphans movements reference unknown SKUs" >&2; exit 1; }`,
      sh`
        if [ -n "$(sqlite3 ${T} 'PRAGMA foreign_key_check;')" ]; then
          echo "stock_moves references SKUs missing from products" >&2
          exit 1
        fi`,
      sh`
        dangling=$(sqlite3 ${T} "SELECT COUNT(*) FROM stock_moves m LEFT JOIN products p ON p.sku = m.sku WHERE p.sku IS NULL;")
        if [ "$dangling" != 0 ]; then
          echo "$dangling stock movements have no product" >&2
          exit 1
        fi`,
    ]);
    const distinct = rng.chance(0.6)
      ? sh`
        skus=$(tail -n +2 ${src("stock_moves.csv")} | cut -d, -f1 | sort -u | wc -l)
        moved=$(sqlite3 ${T} "SELECT COUNT(DISTINCT sku) FROM stock_moves;")
        if [ "$skus" -ne "$moved" ]; then
          echo "expected $skus distinct SKUs with movements, found $moved" >&2
          exit 1
        fi`
      : null;
    const integrity = rng.pick([
      `sqlite3 ${T} "PRAGMA integrity_check;" | grep -qx ok`,
      `[ "$(sqlite3 ${T} 'PRAGMA quick_check;')" = ok ]`,
      sh`
        health=$(sqlite3 ${T} "PRAGMA integrity_check;")
        if [ "$health" != ok ]; then
          echo "integrity check failed: $health" >&2
          exit 1
        fi`,
    ]);
    const checks = rng.shuffle([orphans, distinct, integrity].filter((x): x is string => x !== null));
    const analyze = rng.pick([`sqlite3 ${T} "ANALYZE;"`, `sqlite3 ${T} "VACUUM;"`, null]);
    const swap = staged ? rng.pick([`mv -f "$STAGE" ${D}`, `mv "$STAGE" ${D}`]) : null;

    const order = rng.pick(["on_hand, sku", "sku", "reorder_level - on_hand DESC, sku"]);
    // sqlite3 prints no header for an empty result: write it explicitly so the file always has one.
    const lowExport = choose(rng, [
      () => sh`
        echo "sku,name,on_hand,reorder_level" > ${LOW}
        sqlite3 -csv ${D} "SELECT sku, name, on_hand, reorder_level FROM stock WHERE on_hand < reorder_level ORDER BY ${order};" >> ${LOW}`,
      () => sh`
        sqlite3 ${D} > ${LOW} <<'SQL'
        .mode csv
        .print sku,name,on_hand,reorder_level
        SELECT sku, name, on_hand, reorder_level
        FROM stock
        WHERE on_hand < reorder_level
        ORDER BY ${order};
        SQL`,
      () => sh`
        {
          printf '%s\\n' 'sku,name,on_hand,reorder_level'
          sqlite3 -csv ${D} 'SELECT sku, name, on_hand, reorder_level FROM stock WHERE on_hand < reorder_level ORDER BY ${order}'
        } > ${LOW}`,
    ]);
    const catExport = rng.pick([
      `sqlite3 -separator ' ' ${D} "SELECT category, COUNT(*) FROM products GROUP BY category ORDER BY category;" > ${CATS}`,
      sh`
        while read -r count category; do
          echo "$category $count"
        done < <(tail -n +2 ${src("products.csv")} | cut -d, -f3 | sort | uniq -c) > ${CATS}`,
      `sqlite3 ${D} "SELECT category || ' ' || COUNT(*) FROM products GROUP BY category ORDER BY 1;" > ${CATS}`,
      `awk -F, 'NR > 1 { n[$3]++ } END { for (c in n) print c, n[c] }' ${src("products.csv")} | sort > ${CATS}`,
    ]);
    const exportsInOrder = rng.chance(0.6) ? [lowExport, catExport] : [catExport, lowExport];

    const lowN = `$${rng.pick(["below", "short", "n_low"])}`;
    const tail = rng.shuffle(
      [
        rng.pick([
          `sqlite3 ${D} "SELECT sku, on_hand FROM stock ORDER BY on_hand DESC LIMIT 3;"`,
          `sqlite3 -column -header ${D} "SELECT sku, name, on_hand FROM stock ORDER BY on_hand DESC, sku LIMIT 5;"`,
          `sqlite3 ${D} "SELECT 'out of stock: ' || COUNT(*) FROM stock WHERE on_hand <= 0;"`,
        ]),
        rng.pick([`chmod 640 ${D}`, `chmod 0644 ${D}`, null]),
      ].filter((x): x is string => x !== null),
    );
    const showLow = rng.chance(0.5);
    const fin = choose(rng, [
      () => ({
        text: `echo "$${NP} products, $${NM} movements, $(($(wc -l < ${LOW}) - 1)) below reorder level"`,
        out: `${skus} products, ${moveCount} movements, ${lowCount} below reorder level`,
      }),
      () => ({
        text: joinLines(`${lowN.slice(1)}=$(sqlite3 ${D} "SELECT COUNT(*) FROM stock WHERE on_hand < reorder_level;")`, `echo "loaded $${NP} products and $${NM} stock movements; ${lowN} SKUs need reordering"`),
        out: `loaded ${skus} products and ${moveCount} stock movements; ${lowCount} SKUs need reordering`,
      }),
      () => ({
        text: joinLines(`${lowN.slice(1)}=$(tail -n +2 ${LOW} | wc -l)`, `echo "${lowN} of $${NP} SKUs are below their reorder level ($${NM} movements loaded)"`),
        out: `${lowCount} of ${skus} SKUs are below their reorder level (${moveCount} movements loaded)`,
      }),
    ]);

    const script = joinLines(
      header,
      ...vars,
      mkdir,
      fresh,
      schema,
      viewFirst ? view : null,
      load,
      index,
      viewFirst ? null : view,
      counts,
      ...checks,
      analyze,
      swap,
      ...exportsInOrder,
      ...tail,
      showLow ? `wc -l ${LOW}` : null,
      fin.text,
    );

    const intro = choose(rng, [
      () => [
        `Load \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\` into SQLite at \`${db}\` (tables products and stock_moves, an index on stock_moves.sku, and a view stock with on_hand per SKU).`,
        "",
        `Export SKUs whose on_hand is below reorder_level to \`${low}\` (sku,name,on_hand,reorder_level) and product counts per category to \`${cats}\`.`,
        "",
        "Rebuilding the database from scratch must always give exactly the same result.",
      ],
      () => [
        `Build the SQLite database \`${db}\` from \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\`: tables products and stock_moves, an index on stock_moves.sku, and a view stock giving on_hand for every SKU.`,
        "",
        `Write the SKUs with on_hand below reorder_level to \`${low}\` (columns sku,name,on_hand,reorder_level), and the number of products per category to \`${cats}\`.`,
        "",
        "A rebuild from scratch must give exactly the same result.",
      ],
      () => [
        `The ${p.app} stock data ships as \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\`. Load both into \`${db}\` as tables products and stock_moves, index stock_moves.sku, and add a view stock with on_hand per SKU.`,
        "",
        `Then export what needs reordering (on_hand below reorder_level) to \`${low}\` as sku,name,on_hand,reorder_level, and count products per category in \`${cats}\`. Rebuilding from scratch must always give the same result.`,
      ],
    ]).join("\n");

    const checkIndex = rng.chance(0.5);
    const exactLow = rng.chance(0.4);
    const viewPart = new Part(db, "d").sql("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stock'", "==", 1);
    if (checkIndex) viewPart.sql("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'stock_moves' AND sql IS NOT NULL", ">=", 1);
    const lowPart = new Part(low).isFile().csvHeader(["sku", "name", "on_hand", "reorder_level"], 0);
    if (exactLow) lowPart.raw([`assert len(rows) - 1 == ${lowCount}`], 1, [`AssertionError: assert 0 == ${lowCount}`]);
    return {
      title: rng.pick([`Build the ${p.app} stock database`, `Load ${p.app} inventory into SQLite`, `Find ${p.app} SKUs that need reordering`]),
      intro,
      packages: ["sqlite3"],
      fixtures: [
        { src: "products.csv", dest: `${p.dataDir}/products.csv`, content: products },
        { src: "stock_moves.csv", dest: `${p.dataDir}/stock_moves.csv`, content: moves },
      ],
      script,
      output: [...(showLow ? [`${lowCount + 1} ${low}`] : []), fin.out],
      tests: [
        fixtureIntact(`${p.dataDir}/stock_moves.csv`, lineCount(moves)),
        test("test_tables_loaded", "Both tables hold every CSV row.", 0, [
          new Part(db).isFile().sql("SELECT COUNT(*) FROM products", "==", skus).sql("SELECT COUNT(*) FROM stock_moves", "==", moveCount).build(),
        ]),
        test("test_stock_view", checkIndex ? "The stock view and an index on stock_moves exist." : "The stock view exists.", 0, [viewPart.build()]),
        test("test_low_stock_export", exactLow ? "Low-stock export has the expected header and rows." : "Low-stock export has the expected header.", 0, [lowPart.build()]),
        test("test_categories", "Categories are counted.", 0, [new Part(cats).isFile().matches("^[a-z]+ [0-9]+$", "category line").build()]),
      ],
      artifacts: [
        { path: db, kind: "db", table: "products", columns: ["sku", "name", "category", "reorder_level"] },
        { path: low, kind: "csv", columns: ["sku", "name", "on_hand", "reorder_level"] },
        { path: cats, kind: "file" },
      ],
      inputs: [
        { path: `${p.dataDir}/products.csv`, kind: "csv", columns: ["sku", "name", "category", "reorder_level"] },
        { path: `${p.dataDir}/stock_moves.csv`, kind: "csv", columns: ["sku", "moved_at", "quantity"] },
      ],
      tags: ["sqlite", "sql", "inventory"],
    };
  },
};
