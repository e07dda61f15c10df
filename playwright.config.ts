import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? ".data/e2e";

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Specs run signed in as an admin unless they ask for another role (e2e/auth.ts).
    storageState: `${dataDir}/auth/admin.json`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...devices["Desktop Chrome"],
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      // Debian's Chromium: Playwright's own browser downloads are not available here.
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  webServer: {
    // A fresh embedded database with a small demo run, then the production build, which must not
    // have opened the database (a build worker holding its lock would turn `next start`'s first
    // requests away).
    command:
      `rm -rf ${dataDir} && node bin/rst-curator.js prepare && npx next build && ` +
      `node -e "if (require('fs').existsSync('${dataDir}/pglite.lock')) { console.error('next build opened the embedded database'); process.exit(1) }" && ` +
      `npx next start -p ${port}`,
    url: `http://127.0.0.1:${port}/api/v1/runs`,
    timeout: 600_000,
    reuseExistingServer: !process.env.CI,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PGLITE_DIR: `${dataDir}/pglite`,
      DEMO_DIR: `${dataDir}/demo-run`,
      DEMO_TASKS: process.env.E2E_DEMO_TASKS ?? "600",
      DATABASE_URL: "",
      // The first start creates this admin (no generated password to fish out of the log).
      ADMIN_EMAIL: "admin@e2e.test",
      ADMIN_PASSWORD: "e2e-admin-password-0",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
