// SQLite operators: CSV import, indexes and views, dumps, schema migrations.
import { Part } from "../pytest-parts";
import type { OpContext, Operator } from "../types";
import { free, latest, opResult, sh, snake, stemOf } from "./common";

function csvWithColumns(c: OpContext) {
  for (let i = c.artifacts.length - 1; i >= 0; i--) {
    const a = c.artifacts[i];
    if (a && a.kind === "csv" && a.columns && a.columns.length >= 2) return a;
  }
  return null;
}

export const sqliteImportCsv: Operator = {
  id: "sqlite-import-csv",
  theme: "databases",
  applies: (c) => csvWithColumns(c) !== null && free(c, `${c.profile.root}/db/${c.profile.app}.sqlite`),
  build(c) {
    const src = csvWithColumns(c);
    const csvPath = src?.path ?? `${c.profile.dataDir}/input.csv`;
    const cols = src?.columns ?? ["id", "value"];
    const table = snake(stemOf(csvPath)) || "records";
    const db = `${c.profile.root}/db/${c.profile.app}.sqlite`;
    const counts = `${c.profile.reportDir}/db-counts.txt`;
    const colDefs = cols.map((col, i) => `${snake(col)} TEXT${i === 0 ? " NOT NULL" : ""}`).join(", ");
    const step = sh`
      # Load the CSV into SQLite so later steps can query it with SQL.
      DB=${db}
      mkdir -p "$(dirname "$DB")"
      rm -f "$DB"
      sqlite3 "$DB" "CREATE TABLE ${table} (${colDefs});"
      sqlite3 "$DB" ".import --csv --skip 1 ${csvPath} ${table}"
      sqlite3 "$DB" "UPDATE ${table} SET ${snake(cols[0] ?? "id")} = trim(${snake(cols[0] ?? "id")});"
      sqlite3 "$DB" "SELECT name FROM sqlite_master WHERE type = 'table';" | grep -qx ${table}
      loaded=$(sqlite3 "$DB" "SELECT COUNT(*) FROM ${table};")
      expected=$(($(wc -l < ${csvPath}) - 1))
      if [ "$loaded" -ne "$expected" ]; then
        echo "loaded $loaded of $expected rows" >&2
        exit 1
      fi
      integrity=$(sqlite3 "$DB" "PRAGMA integrity_check;")
      if [ "$integrity" != "ok" ]; then
        echo "integrity check failed: $integrity" >&2
        exit 1
      fi
      sqlite3 -separator ' ' "$DB" "SELECT '${table}', COUNT(*) FROM ${table};" > ${counts}
      chmod 640 "$DB"`;
    return opResult(this.id, {
      step,
      output: [`imported ${c.rng.int(10, 900)} rows into ${db}:${table}`],
      primary: { path: db, kind: "db", table, columns: cols.map(snake) },
      secondary: { path: counts, kind: "file" },
      testName: "test_sqlite_import",
      testDoc: `The ${table} table holds every CSV row.`,
      primaryPart: new Part(db).isFile().sql(`SELECT COUNT(*) FROM ${table}`, ">=", 1).build(),
      secondaryPart: new Part(counts, "cnt").isFile().contains(`${table} `).build(),
      need: `Import ${csvPath} into table ${table} of the SQLite database \`${db}\` (all rows, integrity_check ok).`,
      needSecondary: `Write "<table> <rows>" to \`${counts}\`.`,
      label: "SQLite import",
      packages: ["sqlite3"],
    });
  },
};

function firstTable(c: OpContext): { db: string; table: string; column: string } | null {
  const db = latest(c, ["db"]);
  if (!db || !db.table || !db.columns || db.columns.length < 2) return null;
  return { db: db.path, table: db.table, column: snake(db.columns[1] ?? "value") };
}

export const sqliteIndexView: Operator = {
  id: "sqlite-index-view",
  theme: "databases",
  extendsExisting: true,
  applies: (c) => firstTable(c) !== null,
  build(c) {
    const t = firstTable(c) ?? { db: `${c.profile.root}/db/app.sqlite`, table: "records", column: "value" };
    const view = `${t.table}_by_${t.column}`;
    const step = sh`
      # Reports group by ${t.column}; index it and expose the grouping as a view.
      DB=${t.db}
      sqlite3 "$DB" "CREATE INDEX IF NOT EXISTS idx_${t.table}_${t.column} ON ${t.table}(${t.column});"
      sqlite3 "$DB" "DROP VIEW IF EXISTS ${view};"
      sqlite3 "$DB" "CREATE VIEW ${view} AS SELECT ${t.column}, COUNT(*) AS n FROM ${t.table} GROUP BY ${t.column};"
      plan=$(sqlite3 "$DB" "EXPLAIN QUERY PLAN SELECT * FROM ${t.table} WHERE ${t.column} = 'x';")
      case "$plan" in
        *idx_${t.table}_${t.column}*) echo "index used" ;;
        *) echo "index not used: $plan" >&2; exit 1 ;;
      esac
      groups=$(sqlite3 "$DB" "SELECT COUNT(*) FROM ${view};")
      sqlite3 -header -column "$DB" <<'SQL'
      SELECT *
      FROM ${view}
      ORDER BY n DESC
      LIMIT 5;
      SQL
      sqlite3 "$DB" "ANALYZE;"
      sqlite3 "$DB" "PRAGMA quick_check;" | grep -qx ok
      echo "view ${view} has $groups groups"`;
    return opResult(this.id, {
      step,
      output: ["index used", `view ${view} has ${c.rng.int(2, 20)} groups`],
      primary: { path: t.db, kind: "db", table: t.table, columns: latest(c, ["db"])?.columns ?? [] },
      primaryIsNew: false,
      testName: `test_${view}_view`,
      testDoc: `The ${view} view and its index exist.`,
      primaryPart: new Part(t.db).isFile()
        .sql(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'view' AND name = '${view}'`, "==", 1)
        .sql(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'idx_${t.table}_${t.column}'`, "==", 1)
        .build(true),
      need: `Index ${t.table}.${t.column} in \`${t.db}\` and add a view ${view} counting rows per ${t.column}.`,
      label: "index and view",
      packages: ["sqlite3"],
    });
  },
};

export const sqliteDumpBackup: Operator = {
  id: "sqlite-dump-backup",
  theme: "databases",
  applies: (c) => latest(c, ["db"]) !== null && free(c, `/var/backups/${c.profile.app}/db-dump.sql.gz`),
  build(c) {
    const db = latest(c, ["db"])?.path ?? `${c.profile.root}/db/app.sqlite`;
    const dump = `/var/backups/${c.profile.app}/db-dump.sql.gz`;
    const step = sh`
      # Logical backup: a gzipped SQL dump that restores into a scratch database.
      DB=${db}
      DUMP=${dump}
      mkdir -p "$(dirname "$DUMP")"
      sqlite3 "$DB" ".dump" | gzip -9 > "$DUMP"
      tables=$(zgrep -c '^CREATE TABLE' "$DUMP")
      scratch=$(mktemp -u --suffix=.sqlite)
      zcat "$DUMP" | sqlite3 "$scratch"
      orig=$(sqlite3 "$DB" "SELECT COUNT(*) FROM sqlite_master WHERE type='table';")
      restored=$(sqlite3 "$scratch" "SELECT COUNT(*) FROM sqlite_master WHERE type='table';")
      rm -f "$scratch"
      if [ "$orig" -ne "$restored" ]; then
        echo "restore lost tables: $orig vs $restored" >&2
        exit 1
      fi
      chmod 600 "$DUMP"
      bytes=$(stat -c %s "$DUMP")
      if [ "$bytes" -lt 100 ]; then
        echo "dump is only $bytes bytes" >&2
        exit 1
      fi`;
    return opResult(this.id, {
      step,
      output: [`dumped ${c.rng.int(1, 4)} tables to ${dump}`],
      primary: { path: dump, kind: "archive" },
      testName: "test_sql_dump_backup",
      testDoc: "The gzipped SQL dump is complete and private.",
      primaryPart: new Part(dump).isFile().mode(0o600).raw(
        [`sql = gzip.decompress(p.read_bytes()).decode()`, `assert "CREATE TABLE" in sql`, `assert sql.rstrip().endswith("COMMIT;")`],
        2,
        ["AssertionError: assert 'CREATE TABLE' in ''"],
      ).build(),
      need: `Dump \`${db}\` as gzipped SQL to \`${dump}\` (mode 0600, restorable).`,
      label: "SQL dump",
      packages: ["sqlite3"],
    });
  },
};

export const sqliteSchemaMigration: Operator = {
  id: "sqlite-schema-migration",
  theme: "databases",
  extendsExisting: true,
  applies: (c) => firstTable(c) !== null,
  build(c) {
    const t = firstTable(c) ?? { db: `${c.profile.root}/db/app.sqlite`, table: "records", column: "value" };
    const version = c.rng.int(2, 9);
    const step = sh`
      # Schema v${version}: track when rows were imported; user_version records the migration.
      DB=${t.db}
      current=$(sqlite3 "$DB" "PRAGMA user_version;")
      if [ "$current" -ge ${version} ]; then
        echo "schema already at $current"
      else
        sqlite3 "$DB" <<'SQL'
      BEGIN;
      ALTER TABLE ${t.table} ADD COLUMN imported_at TEXT;
      UPDATE ${t.table} SET imported_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
      PRAGMA user_version = ${version};
      COMMIT;
      SQL
      fi
      sqlite3 "$DB" "PRAGMA table_info(${t.table});" | cut -d'|' -f2 | grep -qx imported_at
      nulls=$(sqlite3 "$DB" "SELECT COUNT(*) FROM ${t.table} WHERE imported_at IS NULL;")
      [ "$nulls" -eq 0 ] || { echo "$nulls rows without imported_at" >&2; exit 1; }
      sqlite3 "$DB" "PRAGMA user_version;"
      sqlite3 "$DB" "PRAGMA foreign_key_check;" | wc -l
      echo "migrated ${t.table} to schema ${version}"`;
    return opResult(this.id, {
      step,
      output: [String(version), "0", `migrated ${t.table} to schema ${version}`],
      primary: { path: t.db, kind: "db", table: t.table, columns: latest(c, ["db"])?.columns ?? [] },
      primaryIsNew: false,
      testName: `test_schema_v${version}`,
      testDoc: `Schema version ${version} adds imported_at to ${t.table}.`,
      primaryPart: new Part(t.db).isFile()
        .sql("PRAGMA user_version", "==", version)
        .sql(`SELECT COUNT(*) FROM ${t.table} WHERE imported_at IS NULL`, "==", 0)
        .build(true),
      need: `Migrate \`${t.db}\` to user_version ${version}: add ${t.table}.imported_at and fill it for every row.`,
      label: "schema migration",
      packages: ["sqlite3"],
    });
  },
};
