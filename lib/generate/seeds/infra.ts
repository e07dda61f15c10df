// Networking, database and file-operation seeds: static site, port audit, SQLite inventory,
// rotating backups.
import { sh } from "../operators/common";
import { productsCsv, servicesIni, stockMovesCsv } from "./data";
import { fixtureIntact, lineCount, Part, test, type SeedTemplate } from "./spec";

export const staticSite: SeedTemplate = {
  id: "static-site",
  category: "networking",
  image: "ubuntu:24.04",
  difficulty: "easy",
  profile: (p) => ({ dataDir: `${p.root}/public` }),
  build(rng, p) {
    const pub = `${p.root}/public`;
    const conf = `/etc/nginx/conf.d/${p.app}.conf`;
    const check = `${p.reportDir}/http_check.txt`;
    const html = `<!doctype html>\n<html><head><title>${p.app}</title></head>\n<body><h1>${p.app} status</h1><p>build ${rng.hex(7)}</p></body></html>\n`;
    const script = sh`
      # Serve the static site with nginx on port ${p.port}, gzip on, caching headers for assets.
      PUB=${pub}
      CONF=${conf}
      test -f "$PUB/index.html"
      find "$PUB" -type d -exec chmod 755 {} +
      find "$PUB" -type f -exec chmod 644 {} +
      rm -f /etc/nginx/sites-enabled/default
      cat > "$CONF" <<'EOF'
      server {
          listen ${p.port};
          server_name ${p.app}.local;
          root ${pub};
          index index.html;
          gzip on;
          gzip_types text/css application/javascript;
          location ~* \\.(css|js|png)$ { expires 7d; }
          location / { try_files $uri $uri/ =404; }
      }
      EOF
      nginx -t
      if pgrep -x nginx > /dev/null; then nginx -s reload; else nginx; fi
      for i in $(seq 1 10); do
        curl -fs -o /dev/null "http://127.0.0.1:${p.port}/" && break
        sleep 0.5
      done
      mkdir -p ${p.reportDir}
      code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${p.port}/")
      missing=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${p.port}/nope.html")
      title=$(curl -s "http://127.0.0.1:${p.port}/" | grep -o '<title>[^<]*' | cut -d'>' -f2)
      gz=$(curl -s -H 'Accept-Encoding: gzip' -o /dev/null -D - "http://127.0.0.1:${p.port}/" | grep -ci '^content-encoding: gzip' || true)
      if [ "$code" != "200" ] || [ "$missing" != "404" ]; then
        echo "unexpected status codes: $code / $missing" >&2
        exit 1
      fi
      cat > ${check} <<EOF
      index=$code
      missing=$missing
      title=$title
      gzip=$gz
      EOF
      ss -ltn | grep -q ":${p.port} "
      tail -n 2 /var/log/nginx/access.log
      echo "site up on :${p.port} ($title)"`;
    return {
      title: `Serve the ${p.app} status site`,
      intro: [
        `Serve \`${pub}\` (it contains index.html) with nginx on port ${p.port} using a server block in \`${conf}\`: index.html as index, 404 for unknown paths, and the default site disabled.`,
        "",
        `Check it with curl and record \`index=<code>\`, \`missing=<code>\` and \`title=<page title>\` lines in \`${check}\`.`,
        "",
        "Leave index.html untouched and keep nginx running after the solution finishes.",
      ].join("\n"),
      packages: ["nginx", "curl", "iproute2", "procps"],
      fixtures: [{ src: "index.html", dest: `${pub}/index.html`, content: html }],
      script,
      output: ["nginx: configuration file /etc/nginx/nginx.conf test is successful", `site up on :${p.port} (${p.app})`],
      tests: [
        fixtureIntact(`${pub}/index.html`, lineCount(html)),
        test("test_server_block", "The server block listens on the service port.", 0, [new Part(conf).isFile().contains(`listen ${p.port};`, `root ${pub};`).build()]),
        test("test_site_answers", "The site answers 200 and 404 as expected.", 0, [
          new Part(conf, "c").run(["curl", "-s", `http://127.0.0.1:${p.port}/`], `${p.app} status`).build(),
        ]),
        test("test_http_check_report", "The HTTP check is recorded.", 0, [new Part(check).isFile().contains("index=200", "missing=404", `title=${p.app}`).build()]),
      ],
      artifacts: [
        { path: conf, kind: "config" },
        { path: check, kind: "config" },
      ],
      inputs: [{ path: `${pub}/index.html`, kind: "file" }],
      tags: ["nginx", "http", "web"],
    };
  },
};

export const portAudit: SeedTemplate = {
  id: "port-audit",
  category: "networking",
  image: "python:3.12-slim",
  difficulty: "easy",
  profile: (p) => ({ dataDir: `${p.root}/etc` }),
  build(rng, p) {
    const ini = `${p.root}/etc/services.ini`;
    const { text, names } = servicesIni(rng, rng.int(4, 7));
    const map = `${p.reportDir}/port_map.csv`;
    const conflicts = `${p.reportDir}/port_conflicts.txt`;
    const script = sh`
      # Audit the service registry: which enabled services listen where, and which collide.
      INI=${ini}
      MAP=${map}
      mkdir -p ${p.reportDir}
      if [ ! -r "$INI" ]; then
        echo "cannot read $INI" >&2
        exit 1
      fi
      echo "service,port,bind,enabled" > "$MAP"
      awk -F' = ' '
        /^\\[/ { if (name != "") print name "," port "," bind "," enabled; name = substr($0, 2, length($0) - 2); next }
        $1 == "port" { port = $2 }
        $1 == "bind" { bind = $2 }
        $1 == "enabled" { enabled = $2 }
        END { if (name != "") print name "," port "," bind "," enabled }
      ' "$INI" | sort -t, -k2,2n -k1,1 >> "$MAP"
      services=$(grep -c '^\\[' "$INI")
      rows=$(($(wc -l < "$MAP") - 1))
      if [ "$rows" -ne "$services" ]; then
        echo "parsed $rows of $services services" >&2
        exit 1
      fi
      # Enabled services sharing a port conflict; list owners sorted by name.
      awk -F, '
        NR > 1 && $4 == "true" { owners[$2] = owners[$2] ? owners[$2] " " $1 : $1; n[$2]++ }
        END {
          for (port in n) {
            if (n[port] < 2) continue
            k = split(owners[port], names, " ")
            line = port
            for (i = 1; i <= k; i++) line = line " " names[i]
            print line
          }
        }
      ' "$MAP" | sort -n > ${conflicts}
      exposed=$(awk -F, '$3 == "0.0.0.0" && $4 == "true"' "$MAP" | wc -l)
      conflicts=$(wc -l < ${conflicts})
      python3 -c "import csv,sys; list(csv.DictReader(open(sys.argv[1])))" "$MAP"
      cat > ${p.reportDir}/port_summary.txt <<EOF
      services=$services
      conflicts=$conflicts
      exposed=$exposed
      EOF
      sed -n '2,4p' "$MAP" | tr ',' ' '
      cut -d, -f1,2 "$MAP" | column -t -s,
      cat ${conflicts}
      echo "audited $services services"`;
    return {
      title: `Audit ${p.app} service ports`,
      intro: [
        `\`${ini}\` registers services with port, bind and enabled keys. Write \`${map}\` (\`service,port,bind,enabled\`, sorted by port then name).`,
        "",
        `List every port claimed by two or more enabled services as "<port> <service> <service>..." in \`${conflicts}\` (empty if none), and counts of services, conflicts and exposed (0.0.0.0, enabled) services in \`${p.reportDir}/port_summary.txt\`.`,
        "",
        "Treat every section of the registry as one service and do not edit the file.",
      ].join("\n"),
      packages: ["gawk", "bsdextrautils"],
      fixtures: [{ src: "services.ini", dest: ini, content: text }],
      script,
      output: ["service  port", `audited ${names.length} services`],
      tests: [
        fixtureIntact(ini, lineCount(text)),
        test("test_port_map", "Every service appears once in the port map.", 0, [
          new Part(map).isFile().csvHeader(["service", "port", "bind", "enabled"]).raw(
            [`assert sorted(r[0] for r in rows[1:]) == ${JSON.stringify([...names].sort())}`],
            1,
            ["AssertionError: assert [] == [...]"],
          ).build(),
        ]),
        test("test_conflicts", "Conflicts name their port first.", 0, [new Part(conflicts).isFile().raw([`assert all(l.split()[0].isdigit() for l in p.read_text().splitlines())`], 1, ["AssertionError"]).build()]),
        test("test_port_summary", "The summary counts services.", 0, [new Part(`${p.reportDir}/port_summary.txt`).isFile().contains(`services=${names.length}`, "conflicts=", "exposed=").build()]),
      ],
      artifacts: [
        { path: map, kind: "csv", columns: ["service", "port", "bind", "enabled"] },
        { path: conflicts, kind: "file" },
        { path: `${p.reportDir}/port_summary.txt`, kind: "config" },
      ],
      inputs: [{ path: ini, kind: "config" }],
      tags: ["ports", "ini", "audit"],
    };
  },
};

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
    const script = sh`
      # Load products and stock movements into SQLite and flag what needs reordering.
      DB=${db}
      DATA=${p.dataDir}
      mkdir -p ${p.reportDir}
      rm -f "$DB"
      sqlite3 "$DB" <<'SQL'
      PRAGMA foreign_keys = ON;
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
      SQL
      sqlite3 "$DB" ".import --csv --skip 1 $DATA/products.csv products"
      sqlite3 "$DB" ".import --csv --skip 1 $DATA/stock_moves.csv stock_moves"
      sqlite3 "$DB" "CREATE INDEX idx_moves_sku ON stock_moves(sku);"
      sqlite3 "$DB" <<'SQL'
      CREATE VIEW stock AS
        SELECT p.sku, p.name, p.reorder_level, COALESCE(SUM(m.quantity), 0) AS on_hand
        FROM products p
        LEFT JOIN stock_moves m ON m.sku = p.sku
        GROUP BY p.sku;
      SQL
      products=$(sqlite3 "$DB" "SELECT COUNT(*) FROM products;")
      moves=$(sqlite3 "$DB" "SELECT COUNT(*) FROM stock_moves;")
      expected=$(($(wc -l < "$DATA/stock_moves.csv") - 1))
      if [ "$moves" -ne "$expected" ]; then
        echo "imported $moves of $expected movements" >&2
        exit 1
      fi
      skus=$(tail -n +2 "$DATA/stock_moves.csv" | cut -d, -f1 | sort -u | wc -l)
      moved=$(sqlite3 "$DB" "SELECT COUNT(DISTINCT sku) FROM stock_moves;")
      if [ "$skus" -ne "$moved" ]; then
        echo "expected $skus distinct SKUs with movements, found $moved" >&2
        exit 1
      fi
      orphans=$(sqlite3 "$DB" "SELECT COUNT(*) FROM stock_moves WHERE sku NOT IN (SELECT sku FROM products);")
      [ "$orphans" -eq 0 ] || { echo "$orphans movements reference unknown SKUs" >&2; exit 1; }
      sqlite3 -header -csv "$DB" "SELECT sku, name, on_hand, reorder_level FROM stock WHERE on_hand < reorder_level ORDER BY on_hand, sku;" > ${low}
      sqlite3 "$DB" "PRAGMA integrity_check;" | grep -qx ok
      sqlite3 -separator ' ' "$DB" "SELECT category, COUNT(*) FROM products GROUP BY category ORDER BY category;" > ${p.reportDir}/categories.txt
      sqlite3 "$DB" "SELECT sku, on_hand FROM stock ORDER BY on_hand DESC LIMIT 3;"
      chmod 640 "$DB"
      wc -l ${low}
      echo "$products products, $moves movements, $(($(wc -l < ${low}) - 1)) below reorder level"`;
    return {
      title: `Build the ${p.app} stock database`,
      intro: [
        `Load \`${p.dataDir}/products.csv\` and \`${p.dataDir}/stock_moves.csv\` into SQLite at \`${db}\` (tables products and stock_moves, an index on stock_moves.sku, and a view stock with on_hand per SKU).`,
        "",
        `Export SKUs whose on_hand is below reorder_level to \`${low}\` (sku,name,on_hand,reorder_level) and product counts per category to \`${p.reportDir}/categories.txt\`.`,
        "",
        "Rebuilding the database from scratch must always give exactly the same result.",
      ].join("\n"),
      packages: ["sqlite3"],
      fixtures: [
        { src: "products.csv", dest: `${p.dataDir}/products.csv`, content: products },
        { src: "stock_moves.csv", dest: `${p.dataDir}/stock_moves.csv`, content: moves },
      ],
      script,
      output: [`${rng.int(2, 9)} ${low}`, `${skus} products`],
      tests: [
        fixtureIntact(`${p.dataDir}/stock_moves.csv`, lineCount(moves)),
        test("test_tables_loaded", "Both tables hold every CSV row.", 0, [
          new Part(db).isFile().sql("SELECT COUNT(*) FROM products", "==", skus).sql("SELECT COUNT(*) FROM stock_moves", "==", lineCount(moves) - 1).build(),
        ]),
        test("test_stock_view", "The stock view exists.", 0, [new Part(db, "d").sql("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stock'", "==", 1).build()]),
        test("test_low_stock_export", "Low-stock export has the expected header.", 0, [new Part(low).isFile().csvHeader(["sku", "name", "on_hand", "reorder_level"], 0).build()]),
        test("test_categories", "Categories are counted.", 0, [new Part(`${p.reportDir}/categories.txt`).isFile().matches("^[a-z]+ [0-9]+$", "category line").build()]),
      ],
      artifacts: [
        { path: db, kind: "db", table: "products", columns: ["sku", "name", "category", "reorder_level"] },
        { path: low, kind: "csv", columns: ["sku", "name", "on_hand", "reorder_level"] },
        { path: `${p.reportDir}/categories.txt`, kind: "file" },
      ],
      inputs: [
        { path: `${p.dataDir}/products.csv`, kind: "csv", columns: ["sku", "name", "category", "reorder_level"] },
        { path: `${p.dataDir}/stock_moves.csv`, kind: "csv", columns: ["sku", "moved_at", "quantity"] },
      ],
      tags: ["sqlite", "sql", "inventory"],
    };
  },
};
