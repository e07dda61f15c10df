import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["{lib,db,cli,components,app}/**/*.test.{ts,tsx}"],
    exclude: ["node_modules", ".next", "e2e"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default leaves a core free: one worker on a 2-core machine. Two finish the suite
    // with PostgreSQL in ≈ 8.5 minutes instead of ≈ 10.5 there (docs/benchmarks.md § Test suite).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    globalSetup: ["db/test-global-setup.ts"],
  },
});
