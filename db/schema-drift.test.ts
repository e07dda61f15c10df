// The three descriptions of the schema agree: the tables of db/schema/ (what queries are typed
// against), drizzle-kit's last snapshot (what `npm run db:generate` diffs against) and the database
// the hand-written migrations build.
import fs from "node:fs";
import { sql } from "drizzle-orm";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { describe, expect, test } from "vitest";
import { execRows } from "./client";
import * as schema from "./schema";
import { BACKENDS, createTestDatabase } from "./testing";

interface SnapshotTable {
  name: string;
  columns: Record<string, { name: string; notNull?: boolean }>;
  indexes: Record<string, { name: string }>;
  compositePrimaryKeys: Record<string, { name: string }>;
  uniqueConstraints: Record<string, { name: string }>;
}
type Snapshot = Parameters<typeof generateMigration>[0];

const SNAPSHOT_DIR = "db/migrations/meta";

function lastSnapshot(): Snapshot {
  const files = fs.readdirSync(SNAPSHOT_DIR).filter((f) => f.endsWith("_snapshot.json")).sort();
  return JSON.parse(fs.readFileSync(`${SNAPSHOT_DIR}/${files.at(-1)}`, "utf8")) as Snapshot;
}

const snapshotTables = (): SnapshotTable[] => Object.values((lastSnapshot() as { tables: Record<string, SnapshotTable> }).tables);

test("db:generate has nothing to draft: the last snapshot is the schema of db/schema/", async () => {
  const snapshot = lastSnapshot();
  const current = generateDrizzleJson(schema as Record<string, unknown>, snapshot.id);
  expect(await generateMigration(snapshot, current)).toEqual([]);
});

describe.each(BACKENDS)("the migrations on %s", (backend) => {
  test("build the tables, columns and indexes of the snapshot, and nothing else", async () => {
    const database = await createTestDatabase(backend);
    try {
      const columns = await execRows<{ table_name: string; column_name: string; is_nullable: string }>(
        database.db,
        sql`SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      const indexes = await execRows<{ tablename: string; indexname: string }>(
        database.db,
        sql`SELECT tablename, indexname FROM pg_indexes WHERE schemaname = 'public'`,
      );
      const inDb = (rows: { table: string; name: string }[]) => rows.map((r) => `${r.table}.${r.name}`).sort();
      const tables = snapshotTables();
      const described = {
        columns: tables.flatMap((t) => Object.values(t.columns).map((c) => `${t.name}.${c.name} ${c.notNull ? "not null" : "null"}`)).sort(),
        indexes: tables
          .flatMap((t) =>
            [...Object.values(t.indexes), ...Object.values(t.compositePrimaryKeys), ...Object.values(t.uniqueConstraints)].map((i) => `${t.name}.${i.name}`),
          )
          .sort(),
      };
      const singlePkey = (name: string) => name.endsWith("_pkey");
      expect({
        columns: columns.map((c) => `${c.table_name}.${c.column_name} ${c.is_nullable === "NO" ? "not null" : "null"}`).sort(),
        indexes: inDb(indexes.filter((i) => !singlePkey(i.indexname)).map((i) => ({ table: i.tablename, name: i.indexname }))),
      }).toEqual(described);
    } finally {
      await database.close();
    }
  });
});
