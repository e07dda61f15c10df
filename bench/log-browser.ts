// npx tsx bench/log-browser.ts [--port 3244] [--data .data/bench-logs] [--repeat 5] [--jumps 60] [--no-build] [--keep]
// Issue 5's browser budgets, measured in Chromium against a production server of its own (its
// own port and data directory): navigation → first lines of a 50 MB log, End → last line on
// screen, and the page's JS heap after opening it, after End, and after jumping around the log.
// Prints the numbers and writes bench/out/log-browser.json; it asserts nothing.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, request, type Page } from "@playwright/test";
import { apiSignIn } from "../e2e/auth";
import { BIG_LINES, logUrl, uploadLogRun } from "../e2e/log-run";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3244" },
    data: { type: "string", default: ".data/bench-logs" },
    repeat: { type: "string", default: "5" },
    "no-build": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    jumps: { type: "string", default: "60" },
  },
});

const port = Number(args.port);
const base = `http://127.0.0.1:${port}`;
const dataDir = path.resolve(args.data);
const ADMIN = { email: "admin@bench.test", password: "bench-admin-password-0" };
const env = {
  ...process.env,
  PGLITE_DIR: path.join(dataDir, "pglite"),
  DEMO_DIR: path.join(dataDir, "demo-run"),
  DEMO_TASKS: "20",
  DATABASE_URL: "",
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  BETTER_AUTH_URL: base,
  NEXT_TELEMETRY_DISABLED: "1",
};

function run(label: string, cmd: string, cmdArgs: string[]): void {
  process.stderr.write(`${label}…\n`);
  const r = spawnSync(cmd, cmdArgs, { env, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`${label} failed (${r.status})`);
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn("npx", ["next", "start", "-p", String(port)], { env, detached: true, stdio: "ignore" });
  for (let i = 0; i < 120; i++) {
    const up = await fetch(`${base}/api/v1/runs`).then(
      (r) => r.status > 0,
      () => false,
    );
    if (up) return server;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not come up");
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}

const mb = (bytes: number) => Number((bytes / 2 ** 20).toFixed(1));

/** Resident memory of the largest renderer process under the browser (the page's), from ps. */
function rendererRssMb(browserPid: number | undefined): number | null {
  if (!browserPid) return null;
  const ps = spawnSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8" });
  if (ps.status !== 0) return null;
  const procs = ps.stdout
    .trim()
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), rssKb: Number(m[3]), args: m[4] ?? "" }));
  const mine = new Set([browserPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) if (mine.has(p.ppid) && !mine.has(p.pid)) grew = mine.add(p.pid) !== undefined;
  }
  const renderers = procs.filter((p) => mine.has(p.pid) && p.args.includes("--type=renderer"));
  return renderers.length ? Math.round(Math.max(...renderers.map((p) => p.rssKb)) / 1024) : null;
}

let browserPid: number | undefined;

/** JS heap of the page after a full garbage collection, its DOM node count (CDP), and its renderer's RSS. */
async function heap(page: Page): Promise<{ used_mb: number; total_mb: number; dom_nodes: number; renderer_rss_mb: number | null }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const { metrics } = await cdp.send("Performance.getMetrics");
  await cdp.detach();
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  return { used_mb: mb(m("JSHeapUsedSize")), total_mb: mb(m("JSHeapTotalSize")), dom_nodes: m("Nodes"), renderer_rss_mb: rendererRssMb(browserPid) };
}

/** Milliseconds from navigation start until line 1 shows its text. */
async function firstLines(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  const handle = await page.waitForFunction(
    () => (document.querySelector('[data-line="1"]')?.textContent?.includes("step 1/") ? performance.now() : null),
    undefined,
    { polling: "raf", timeout: 60_000 },
  );
  return Math.round(Number(await handle.jsonValue()));
}

/** Where the first-lines time goes: server response, HTML done, first paint (ms from navigation start). */
async function navigationTiming(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const fcp = performance.getEntriesByName("first-contentful-paint")[0];
    return {
      response_start: Math.round(nav?.responseStart ?? 0),
      response_end: Math.round(nav?.responseEnd ?? 0),
      html_kb: Math.round((nav?.transferSize ?? 0) / 1024),
      dom_content_loaded: Math.round(nav?.domContentLoadedEventEnd ?? 0),
      first_contentful_paint: Math.round(fcp?.startTime ?? 0),
    };
  });
}

/** Milliseconds from navigation start until the viewer is interactive (it focuses its rows when hydrated). */
async function interactive(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (document.activeElement?.getAttribute("aria-label")?.startsWith("Log lines") ? performance.now() : null), undefined, {
    polling: "raf",
    timeout: 60_000,
  });
  return Math.round(Number(await handle.jsonValue()));
}

/** Milliseconds from the End key's keydown until the last line is on screen with its text. */
async function pressEnd(page: Page): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __endAt?: number };
    document.addEventListener("keydown", (e) => {
      if (e.key === "End") w.__endAt = performance.now();
    }, { capture: true, once: true });
  });
  await page.keyboard.press("End");
  const handle = await page.waitForFunction(
    (last) => {
      const row = document.querySelector(`[data-line="${last}"]`);
      const box = row?.closest('[role="region"]');
      if (!row || !box || !row.textContent?.includes("end of log")) return null;
      const r = row.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (r.bottom > b.bottom + 1 || r.top < b.top) return null;
      return performance.now() - ((window as unknown as { __endAt?: number }).__endAt ?? 0);
    },
    BIG_LINES,
    { polling: "raf", timeout: 60_000 },
  );
  return Math.round(Number(await handle.jsonValue()));
}

/** Jumps to `count` lines spread over the log with the go-to-line field, each waited for. */
async function roam(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const line = 1 + Math.floor(((i * 7919) % count) * (BIG_LINES / count));
    await page.keyboard.press("g");
    await page.getByRole("textbox", { name: "Go to line" }).fill(String(line));
    await page.keyboard.press("Enter");
    await page.waitForFunction((n) => Boolean(document.querySelector(`[data-line="${n}"]`)?.textContent?.includes(`step ${n}/`)), line, {
      polling: "raf",
      timeout: 30_000,
    });
  }
}

/** Server time of the line windows the page fetched (Resource Timing), in ms. */
async function windowTimings(page: Page): Promise<number[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter((e) => /\/logs\/.*[?&]from=\d+/.test(e.name))
      .map((e) => {
        const r = e as PerformanceResourceTiming;
        return Math.round(r.responseStart - r.requestStart);
      }),
  );
}

/** Playwright does not expose the launched browser's pid; it is the newest chromium whose parent is this process. */
async function findBrowserPid(): Promise<number | undefined> {
  const ps = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  const line = ps.stdout
    .trim()
    .split("\n")
    .filter((l) => l.includes("chromium"))
    .pop();
  return line ? Number(line.trim().split(/\s+/)[0]) : undefined;
}

async function main(): Promise<void> {
  const repeat = Number(args.repeat);
  fs.rmSync(dataDir, { recursive: true, force: true });
  run("prepare (migrations, admin, small demo run)", process.execPath, ["bin/rst-curator.js", "prepare"]);
  if (!args["no-build"]) run("next build", "npx", ["next", "build"]);
  process.stderr.write(`next start on ${port}…\n`);
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--enable-precise-memory-info", "--disable-background-networking", "--no-first-run"],
  });
  browserPid = await findBrowserPid();
  try {
    const api = await request.newContext({ baseURL: base });
    await apiSignIn(api, base, ADMIN.email, ADMIN.password);
    process.stderr.write("uploading the 50 MB log run…\n");
    const uploadStarted = performance.now();
    const trialId = await uploadLogRun(api, base, "bench-logs");
    const importSeconds = Number(((performance.now() - uploadStarted) / 1000).toFixed(1));
    const storageState = await api.storageState();
    await api.dispose();
    const url = `${base}${logUrl(trialId, "verifier/test-stdout.txt")}`;

    const first: number[] = [];
    const ready: number[] = [];
    const end: number[] = [];
    let heapOpened: Awaited<ReturnType<typeof heap>> | null = null;
    let heapEnd: Awaited<ReturnType<typeof heap>> | null = null;
    let windows: number[] = [];
    const timings: Record<string, number>[] = [];
    for (let i = 0; i < repeat; i++) {
      const context = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      first.push(await firstLines(page, url));
      ready.push(await interactive(page));
      timings.push(await navigationTiming(page));
      if (i === repeat - 1) heapOpened = await heap(page);
      end.push(await pressEnd(page));
      if (i === repeat - 1) {
        heapEnd = await heap(page);
        windows = await windowTimings(page);
      }
      await context.close();
    }

    const context = await browser.newContext({ storageState, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await firstLines(page, url);
    await interactive(page);
    const roamCount = Number(args.jumps);
    await roam(page, roamCount);
    const heapRoamed = await heap(page);
    // For scale: the same measurements on a page without the viewer.
    await page.goto(`${base}/account`);
    const heapOtherPage = await heap(page);
    await context.close();

    const load = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const results = {
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gb: Math.round(os.totalmem() / 2 ** 30), load_after: load },
      log: { lines: BIG_LINES, file: "verifier/test-stdout.txt (~48.5 MiB, ANSI colours)" },
      import_seconds: importSeconds,
      runs: repeat,
      first_lines_ms: { median: median(first), all: first },
      interactive_ms: { median: median(ready), all: ready },
      navigation_ms: timings,
      end_to_last_line_ms: { median: median(end), all: end },
      window_fetch_ms: windows,
      heap_after_open: heapOpened,
      heap_after_end: heapEnd,
      [`heap_after_${roamCount}_jumps`]: heapRoamed,
      heap_of_account_page: heapOtherPage,
    };
    fs.mkdirSync("bench/out", { recursive: true });
    fs.writeFileSync("bench/out/log-browser.json", `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    if (!args.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
