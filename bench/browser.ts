// npx tsx bench/browser.ts [--port 3240] [--dir .data/bench-browser] [--build] [--fresh] [--runs 5]
// Issue 4's browser budgets, measured in Debian's Chromium against a production server
// (`next start`) with its own embedded database:
//   family: a 5,000-task family page, navigation start → tree rows painted (≤ 1 s), and → hydrated
//   diff:   a 20,000-line diff, navigation start → first rows painted, then frame times while the
//           diff box scrolls to its end (no jank: no long frames)
// The data is a synthetic native run (bench/browser-data.ts) ingested with the CLI; it is kept in
// --dir and reused unless --fresh. --build runs `next build` first (needed after code changes).
// Screenshots of both pages go to bench/out/; results to bench/out/browser-*.json.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "@playwright/test";
import { BIG_CHILD, FAMILY_SEED, writeBrowserRun } from "./browser-data";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3240" },
    dir: { type: "string", default: ".data/bench-browser" },
    build: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    runs: { type: "string", default: "5" },
    out: { type: "string", default: "bench/out" },
  },
});

const RUN = "bench-browser";
const ADMIN = { email: "bench@rst-curator.local", password: "bench-browser-password-0" };
const dir = path.resolve(args.dir);
const base = `http://127.0.0.1:${args.port}`;
const serverEnv = {
  ...process.env,
  DATABASE_URL: "",
  PGLITE_DIR: path.join(dir, "pglite"),
  DEMO_TASKS: "0",
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  NEXT_TELEMETRY_DISABLED: "1",
};

function cli(cliArgs: string[]): void {
  execFileSync(process.execPath, ["bin/rst-curator.js", ...cliArgs], { env: serverEnv, stdio: ["ignore", "ignore", "inherit"] });
}

/** The database with the synthetic run, made once per --dir. */
function prepareData(): void {
  const done = path.join(dir, "ingested");
  if (!args.fresh && fs.existsSync(done)) return;
  fs.rmSync(dir, { recursive: true, force: true });
  const runDir = path.join(dir, "run");
  const { tasks } = writeBrowserRun(runDir, RUN);
  process.stderr.write(`wrote ${tasks} tasks to ${runDir}; migrating and ingesting …\n`);
  const started = performance.now();
  cli(["prepare"]);
  cli(["ingest", runDir]);
  process.stderr.write(`ingested in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  fs.writeFileSync(done, new Date().toISOString());
}

async function startServer(): Promise<ChildProcess> {
  if (args.build || !fs.existsSync(".next/BUILD_ID")) execFileSync("npx", ["next", "build"], { stdio: "inherit", env: serverEnv });
  const server = spawn("npx", ["next", "start", "-p", args.port], { env: serverEnv, stdio: ["ignore", "ignore", "inherit"], detached: true });
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/api/v1/runs`);
      if (res.status < 500) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the server did not start");
}

function stopServer(server: ChildProcess): void {
  // `npx` starts next as its child: end the whole group we started.
  if (server.pid) process.kill(-server.pid, "SIGTERM");
}

// ---------------------------------------------------------------------------------------------
// In the page: when does the first element matching a selector appear, and when is it painted?

type Probe = { selector: string; dom?: number; painted?: number; hydrated?: number; fcp?: number; lcp?: number };

declare global {
  interface Window {
    __probe?: Probe;
  }
}

/** Installed before any page script: marks the first match's insertion, its next paint, and React's hydration of it. */
function installProbe(selector: string): void {
  const probe: Probe = { selector };
  window.__probe = probe;
  const check = () => {
    const el = document.querySelector(selector);
    if (!el) return false;
    if (probe.dom === undefined) {
      probe.dom = performance.now();
      // The callback after the next frame's rendering: as close to "painted" as a page can see.
      requestAnimationFrame(() => setTimeout(() => (probe.painted = performance.now()), 0));
    }
    if (probe.hydrated === undefined && Object.keys(el).some((k) => k.startsWith("__reactFiber$"))) probe.hydrated = performance.now();
    return probe.hydrated !== undefined;
  };
  const observer = new MutationObserver(() => {
    if (check()) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
  const poll = () => {
    if (!check()) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === "first-contentful-paint") probe.fcp = e.startTime;
  }).observe({ type: "paint", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.lcp = e.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
}

interface Load {
  ttfb_ms: number;
  html_kb: number;
  fcp_ms: number | null;
  first_rows_painted_ms: number;
  hydrated_ms: number;
}

async function load(page: Page, url: string, selector: string): Promise<Load> {
  await page.addInitScript(installProbe, selector);
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => window.__probe?.painted !== undefined && window.__probe.hydrated !== undefined, undefined, { timeout: 60_000, polling: 50 });
  return page.evaluate(() => {
    const p = window.__probe as Probe;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const ms = (v: number | undefined) => Number((v ?? 0).toFixed(0));
    return {
      ttfb_ms: ms(nav?.responseStart),
      html_kb: Math.round((nav?.decodedBodySize ?? 0) / 1024),
      fcp_ms: p.fcp === undefined ? null : ms(p.fcp),
      first_rows_painted_ms: ms(p.painted),
      hydrated_ms: ms(p.hydrated),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Scrolling: frame intervals (requestAnimationFrame) while a scroll box moves a fixed step a frame.

interface Frames {
  frames: number;
  p50_ms: number;
  p95_ms: number;
  max_ms: number;
  /** frames longer than 50 ms: visible stutter */
  long_frames: number;
  /** frames longer than 1.5 × 16.7 ms: a dropped frame at 60 Hz */
  dropped_frames: number;
  reached_end: boolean;
  /** Long animation frames (> 50 ms) Chromium reports, and the script and style/layout time in them. */
  loaf: number;
  loaf_script_ms: number;
  loaf_layout_ms: number;
}

async function scrollFrames(page: Page, selector: string, pxPerFrame: number, maxFrames: number): Promise<Frames> {
  return page.evaluate(
    async ({ selector, pxPerFrame, maxFrames }) => {
      const box = document.querySelector(selector);
      if (!(box instanceof HTMLElement)) throw new Error(`no scroll box ${selector}`);
      box.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      // What the long frames were spent on: our scripts and layout, or something else (raster, other processes).
      const long = { n: 0, script: 0, layout: 0 };
      type Loaf = PerformanceEntry & { styleAndLayoutStart: number; scripts: { duration: number }[] };
      const loafs = new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Loaf[]) {
          long.n++;
          long.script += e.scripts.reduce((n, x) => n + x.duration, 0);
          if (e.styleAndLayoutStart > 0) long.layout += e.startTime + e.duration - e.styleAndLayoutStart;
        }
      });
      loafs.observe({ type: "long-animation-frame" });
      const gaps: number[] = [];
      let last = performance.now();
      await new Promise<void>((done) => {
        const frame = (now: number) => {
          gaps.push(now - last);
          last = now;
          const end = box.scrollTop + box.clientHeight >= box.scrollHeight - 1;
          if (end || gaps.length >= maxFrames) return done();
          box.scrollTop += pxPerFrame;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      gaps.shift(); // the wait before the first frame
      await new Promise((r) => setTimeout(r, 100));
      loafs.disconnect();
      const sorted = [...gaps].sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
      const r1 = (v: number) => Number(v.toFixed(1));
      return {
        frames: gaps.length,
        p50_ms: r1(at(0.5)),
        p95_ms: r1(at(0.95)),
        max_ms: r1(sorted[sorted.length - 1] ?? 0),
        long_frames: gaps.filter((g) => g > 50).length,
        dropped_frames: gaps.filter((g) => g > 25).length,
        reached_end: box.scrollTop + box.clientHeight >= box.scrollHeight - 1,
        loaf: long.n,
        loaf_script_ms: Math.round(long.script),
        loaf_layout_ms: Math.round(long.layout),
      };
    },
    { selector, pxPerFrame, maxFrames },
  );
}

function median<T extends object>(samples: T[]): T {
  const out: Record<string, unknown> = {};
  const first = samples[0];
  if (!first) return out as T;
  for (const key of Object.keys(first)) {
    const values = samples.map((s) => (s as Record<string, unknown>)[key]);
    if (values.every((v) => typeof v === "number")) {
      const sorted = (values as number[]).sort((a, b) => a - b);
      out[key] = sorted[Math.floor((sorted.length - 1) / 2)];
    } else out[key] = values[0];
  }
  return out as T;
}

/** The database id of a task of the run, found through the API (the server holds the database). */
async function taskId(page: Page, extId: string, filter: string): Promise<number> {
  const res = await page.request.get(`/api/v1/tasks?run=${RUN}&${filter}&limit=50`);
  const body = (await res.json()) as { items: { id: number; task_id: string }[] };
  const hit = body.items.find((t) => t.task_id === extId);
  if (!hit) throw new Error(`task ${extId} not found`);
  return hit.id;
}

async function measure(browser: Browser): Promise<Record<string, unknown>> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1440, height: 900 } });
  // tsx compiles with esbuild's keepNames: functions sent into the page call its `__name` helper.
  await context.addInitScript({ content: "globalThis.__name = (fn) => fn;" });
  const signIn = await context.request.post("/api/auth/sign-in/email", { data: ADMIN, headers: { origin: base } });
  if (signIn.status() !== 200) throw new Error(`sign-in failed: ${signIn.status()} ${await signIn.text()}`);
  const setup = await context.newPage();
  const seedId = await taskId(setup, FAMILY_SEED, "round=0");
  const bigId = await taskId(setup, BIG_CHILD, "round=1&operator=rewrite-all");
  await setup.close();
  const runs = Number(args.runs);
  const out: Record<string, unknown> = {};

  const familyUrl = `/families/${seedId}`;
  const familyRows = '[role="tree"][aria-label="Family tree"] [role="treeitem"]';
  const family: Load[] = [];
  for (let i = 0; i < runs; i++) {
    const page = await context.newPage();
    family.push(await load(page, familyUrl, familyRows));
    if (i === runs - 1) {
      await page.getByText(/5,000 tasks/).first().waitFor();
      await page.screenshot({ path: path.join(args.out, "browser-family.png") });
      out["family tree scroll, 120 px a frame"] = await scrollFrames(page, '[role="tree"][aria-label="Family tree"]', 120, 600);
    }
    await page.close();
  }
  out["family page, 5,000 tasks: first load (empty browser cache)"] = family[0];
  out["family page, 5,000 tasks: later loads (median)"] = median(family.slice(1));

  const diffRows = '[role="region"][aria-label$="virtualized)"] [data-index]';
  for (const view of ["unified", "split"] as const) {
    const url = `/tasks/${bigId}/diff?file=solution%2Fsolve.sh${view === "split" ? "&view=split" : ""}`;
    const loads: Load[] = [];
    const wheel: Frames[] = [];
    const fling: Frames[] = [];
    for (let i = 0; i < Math.min(runs, 3); i++) {
      const page = await context.newPage();
      loads.push(await load(page, url, diffRows));
      const box = '[role="region"][aria-label$="virtualized)"]';
      wheel.push(await scrollFrames(page, box, 100, 400));
      fling.push(await scrollFrames(page, box, 1_500, 2_000));
      if (i === 0) {
        const label = await page.locator(box).getAttribute("aria-label");
        out[`20,000-line diff (${view}): rows`] = label;
        await page.locator(box).evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
        await page.screenshot({ path: path.join(args.out, `browser-diff-${view}.png`) });
      }
      await page.close();
    }
    out[`20,000-line diff (${view}): load (median)`] = median(loads);
    out[`20,000-line diff (${view}): scroll 100 px a frame (median run)`] = median(wheel);
    out[`20,000-line diff (${view}): scroll to the end, 1,500 px a frame (median run)`] = median(fling);
  }
  await context.close();
  return out;
}

async function main(): Promise<void> {
  fs.mkdirSync(args.out, { recursive: true });
  prepareData();
  const server = await startServer();
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
    const results = await measure(browser);
    process.stdout.write(`load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}\n`);
    for (const [k, v] of Object.entries(results)) process.stdout.write(`${k}\n  ${JSON.stringify(v)}\n`);
    const file = path.join(args.out, `browser-${new Date().toISOString().slice(0, 19).replaceAll(":", "")}.json`);
    fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version, load: os.loadavg() }, results }, null, 2) + "\n");
    process.stderr.write(`results written to ${file}\n`);
  } finally {
    await browser?.close();
    stopServer(server);
  }
}

await main();
