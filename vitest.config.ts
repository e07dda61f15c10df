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
    globalSetup: ["db/test-global-setup.ts"],
  },
});
