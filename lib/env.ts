// The one module that reads process.env: typed, defaulted configuration.
import path from "node:path";

function str(name: string): string | undefined {
  const v = process.env[name];
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

function int(name: string, fallback: number): number {
  const v = str(name);
  if (v === undefined) return fallback;
  const n = Number.parseInt(v, 10);
  if (!Number.isFinite(n)) throw new Error(`Environment variable ${name} must be an integer, got "${v}"`);
  return n;
}

export const env = {
  /** postgres://… — when set, the app uses PostgreSQL through postgres.js; otherwise embedded PGlite. */
  databaseUrl: str("DATABASE_URL"),
  /** Data directory of the embedded database; `memory://` gives a throwaway one. */
  pgliteDir: str("PGLITE_DIR") ?? path.resolve(process.cwd(), ".data/pglite"),
  /** Where the first start writes its demo run. */
  demoDir: str("DEMO_DIR") ?? path.resolve(process.cwd(), ".data/demo-run"),
  /** Accepted tasks in the demo run generated on first start (0 disables it). */
  demoTasks: int("DEMO_TASKS", 1500),
  demoSeed: int("DEMO_SEED", 7),
  port: int("PORT", 3000),
  testDatabaseUrl: str("TEST_DATABASE_URL"),
  isDevelopment: process.env.NODE_ENV === "development",
  /** Inside the Next.js server (its bundle cannot start TypeScript worker threads); read when asked. */
  get inNextServer(): boolean {
    return str("NEXT_RUNTIME") !== undefined;
  },
  /** Inside `next build` (its workers prerender pages; they must not open the database); read when asked. */
  get inNextBuild(): boolean {
    return str("NEXT_PHASE") === "phase-production-build";
  },
  /** Signs session cookies. Unset: a random secret is generated once and kept in the database. */
  authSecret: str("BETTER_AUTH_SECRET"),
  /** The origin the dashboard is served at (https://curator.example.org). Unset: localhost on any port. */
  publicUrl: str("BETTER_AUTH_URL"),
  /** First-start admin account; without a password one is generated and printed once. */
  adminEmail: str("ADMIN_EMAIL") ?? "admin@rst-curator.local",
  adminPassword: str("ADMIN_PASSWORD"),
  /** How long a sign-in lasts without activity, in hours. */
  sessionHours: int("SESSION_HOURS", 12),
  /** Failed sign-ins allowed per email (and per address) within 15 minutes before refusing. */
  signInFailureLimit: int("SIGN_IN_FAILURE_LIMIT", 5),
} as const;
