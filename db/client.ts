// One code path, two databases: PostgreSQL through postgres.js when DATABASE_URL is set,
// embedded PGlite otherwise. Every caller gets a `Db` and never learns which one it is.
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { entityKind, type SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Human-readable location (data directory or URL without password). */
  where: string;
  /** The embedded instance (PGlite only): snapshots for tests. */
  pglite?: PGlite;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "db/migrations");

/** The two drivers' databases differ only in their result HKT; this is the one place we say so. */
function asDb(db: unknown): Db {
  return db as Db;
}

/** A postgres.js client's way to run one statement, with or without a named prepared statement. */
type Unsafe = (query: string, params: unknown[], opts: { prepare: boolean }) => Promise<unknown>;

/** The postgres.js client behind each PostgreSQL `Db` (for `prepared` statements). */
const clients = new WeakMap<Db, Unsafe>();

/** The embedded databases' `Db`s: the database runs in this process's main thread. */
const embedded = new WeakSet<Db>();

/** Whether `db` is embedded PGlite, or a transaction of it: its work shares this process's main
 * thread (the importer sizes its thread pool and its read-ahead by it). */
export function isEmbedded(db: Db): boolean {
  return embedded.has(db) || (db.constructor as { [entityKind]?: string })[entityKind] === "PgliteTransaction";
}

/** The driver client behind a drizzle database or transaction (drizzle keeps it on the session). */
function driverClient(db: Db): unknown {
  return (db as unknown as { session?: { client?: unknown } }).session?.client;
}

interface PostgresJsQuery extends Promise<unknown> {
  writable(): Promise<NodeJS.WritableStream & { write(chunk: Uint8Array, cb?: (err?: Error | null) => void): boolean; end(): void }>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Runs `COPY <table> (…) FROM STDIN (FORMAT binary)` with `data` as its input, on `db` (a
 * transaction: the rows are its own until it commits). `statement` names STDIN; on PGlite it
 * reads a blob instead.
 *
 * postgres.js 3.4 settles the query with the stream as soon as the server asks for data, and an
 * error the server reports after the data has all been sent (a violated constraint, a bad value)
 * reaches nothing: the stream's end never comes. The query's own resolve and reject, which the
 * connection calls again when the statement ends, are watched instead: the second resolve is the
 * result, a reject the server's error.
 */
export async function copyFrom(db: Db, statement: string, data: Uint8Array): Promise<void> {
  if (!/\bFROM STDIN\b/.test(statement)) throw new Error("copyFrom: the statement must read FROM STDIN");
  const client = driverClient(db);
  if (isEmbedded(db)) {
    const pglite = client as { query(q: string, params: unknown[], opts: { blob: Blob }): Promise<unknown> };
    await pglite.query(statement.replace(/\bFROM STDIN\b/, "FROM '/dev/blob'"), [], { blob: new Blob([data as Uint8Array<ArrayBuffer>]) });
    return;
  }
  const sql = client as { unsafe(q: string): PostgresJsQuery };
  const query = sql.unsafe(statement);
  const ended = new Promise<void>((resolve, reject) => {
    const { resolve: settle, reject: fail } = query;
    let calls = 0;
    query.resolve = (value: unknown) => {
      if (++calls === 2) resolve();
      settle(value);
    };
    query.reject = (err: unknown) => {
      reject(err instanceof Error ? err : new Error(String(err)));
      fail(err);
    };
  });
  // The query's own promise rejects too when the server refuses the statement outright.
  ended.catch(() => {});
  const stream = await query.writable();
  // An error while the data is still going out destroys the stream as well; it reaches `ended`.
  stream.on("error", () => {});
  const written = new Promise<void>((resolve, reject) => {
    stream.write(data, (err) => (err ? reject(err) : resolve()));
  });
  await Promise.race([written, ended]);
  stream.end();
  await ended;
}

/** Texts of the statements prepared so far: a few dozen, unless one splices values into its text. */
const preparedTexts = new Set<string>();
export const MAX_PREPARED_TEXTS = 200;

/** How many statement texts were prepared (tests: the queue's statements do not vary with their values). */
export const preparedTextCount = () => preparedTexts.size;

/**
 * Whether to prepare this text: every connection keeps each prepared statement until it closes, so
 * a text that varies with its values would grow without end. Past `MAX_PREPARED_TEXTS` texts, new
 * ones run unprepared (and the first such is reported: a statement marked `prepared` varies).
 */
function preparedText(text: string): boolean {
  if (preparedTexts.has(text)) return true;
  if (preparedTexts.size >= MAX_PREPARED_TEXTS) {
    if (preparedTexts.size === MAX_PREPARED_TEXTS) {
      preparedTexts.add("");
      console.warn(`execRows: more than ${MAX_PREPARED_TEXTS} prepared statement texts; this one runs unprepared (does it splice values into its text?): ${text.slice(0, 200)}`);
    }
    return false;
  }
  preparedTexts.add(text);
  return true;
}

/**
 * Raw SQL rows, whatever the driver: PGlite answers `{rows}`, postgres.js an array.
 *
 * `prepared`: on PostgreSQL, the statement is prepared once per connection and then only bound
 * and executed (drizzle's `execute` parses and plans every time). For the few statements every
 * reviewer's request makes many times a second (the review queue), whose text never varies
 * with the data; not for composed filters, whose many texts would each stay prepared. Inside a
 * transaction, or on PGlite, it runs as usual.
 */
export async function execRows<T>(db: Db, query: SQL, opts: { prepared?: boolean } = {}): Promise<T[]> {
  const unsafe = opts.prepared ? clients.get(db) : undefined;
  if (unsafe) {
    const { sql, params } = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect.sqlToQuery(query);
    return (await unsafe(sql, params, { prepare: preparedText(sql) })) as T[];
  }
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

export class DatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database at ${dir} is in use by process ${pid} (is the dashboard running?). ` +
        `Stop that process first, or point DATABASE_URL at a PostgreSQL server to share one database.`,
    );
    this.name = "DatabaseLockedError";
  }
}

/** Whether a process of this machine is alive (EPERM: alive, someone else's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** PGlite is single-process; a lock file beside the data directory turns a second opener away. */
function acquirePgliteLock(dir: string): () => void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lockPath = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10);
      if (Number.isFinite(holder) && (holder === process.pid || pidAlive(holder))) {
        throw new DatabaseLockedError(dir, holder);
      }
      fs.unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

/**
 * How PGlite sends a `json` parameter: as its UTF-8 bytes (the binary format, which for json is
 * the text itself). As a string, PGlite measures its UTF-8 length twice in a JavaScript loop over
 * every character before encoding it: an import's rows travel as one JSON text per batch and table
 * (db/queries/bulk.ts), and that loop took ≈ 10 % of the importer's main thread, where the
 * embedded database also works (docs/benchmarks.md, session 17). The database validates it the same;
 * anything but a string is serialised as PGlite's own serializer does (bigints as strings).
 */
export function jsonParameter(value: unknown): Uint8Array {
  const text = typeof value === "string" ? value : JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  return Buffer.from(text, "utf8");
}

export interface OpenOptions {
  url?: string;
  pgliteDir?: string;
  /** A pre-migrated PGlite snapshot (tests). */
  loadDataDir?: Blob;
  migrate?: boolean;
}

export async function openDatabase(opts: OpenOptions = {}): Promise<Database> {
  // `next build` prerenders pages in worker processes it may still be stopping when `next start`
  // takes its first request: one that opened PGlite would hold its lock (and could be killed in
  // the middle of a write). Pages read the request's headers before the database, which ends a
  // build's prerender first; a page that did not would get this error instead of the lock (Next
  // abandons the prerender of a page that reads the request anyway).
  if (env.inNextBuild) {
    throw new Error("The database is not opened while building: read the request (headers, cookies) before the database.");
  }
  const url = opts.url ?? (opts.pgliteDir ? undefined : env.databaseUrl);
  let database: Database;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(url, { max: 10, onnotice: () => {} });
    const db = asDb(drizzle(client, { schema }));
    clients.set(db, (query, params, opts) => client.unsafe(query, params as never, opts));
    database = {
      db,
      kind: "postgres",
      where: url.replace(/\/\/[^@/]*@/, "//"),
      close: () => client.end({ timeout: 5 }),
    };
  } else {
    const dir = opts.pgliteDir ?? env.pgliteDir;
    const inMemory = dir.startsWith("memory://");
    const release = inMemory ? () => {} : acquirePgliteLock(dir);
    try {
      const { PGlite, types } = await import("@electric-sql/pglite");
      // PGlite's types say a serializer returns a string; a Uint8Array goes out in binary format.
      const options = { loadDataDir: opts.loadDataDir, serializers: { [types.JSON]: jsonParameter as unknown as (value: unknown) => string } };
      const client = inMemory ? new PGlite(options) : new PGlite(dir, options);
      await client.waitReady;
      const { drizzle } = await import("drizzle-orm/pglite");
      const db = asDb(drizzle(client, { schema }));
      embedded.add(db);
      database = {
        db,
        kind: "pglite",
        where: dir,
        pglite: client,
        close: async () => {
          await client.close();
          release();
        },
      };
    } catch (err) {
      release();
      throw err;
    }
  }
  if (opts.migrate !== false) await migrateDatabase(database);
  return database;
}

/** Applies the migrations not applied yet; `folder` only for migration tests (a partial set). */
export async function migrateDatabase(database: Database, folder = MIGRATIONS_DIR): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder: folder });
  } else {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(database.db as never, { migrationsFolder: folder });
  }
}

const globalForDb = globalThis as unknown as { __rstDb?: Promise<Database> };

/** The process-wide database (opened lazily: `next build` imports this module too). */
export function getDatabase(): Promise<Database> {
  globalForDb.__rstDb ??= openDatabase().catch((err: unknown) => {
    globalForDb.__rstDb = undefined;
    throw err;
  });
  return globalForDb.__rstDb;
}

/** Makes `database` the process-wide one (tests that call route handlers and pages directly). */
export function useDatabase(database: Database): void {
  globalForDb.__rstDb = Promise.resolve(database);
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}
