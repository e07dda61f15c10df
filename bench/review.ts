// npx tsx bench/review.ts [--port 3404] [--tasks 2000] [--reviewers 50] [--seconds 30] [--warmup 5] [--presses 20] [--skip-browser] [--cpu-prof DIR] [--build] [--keep] [--name DB | --reuse DB]
// Issue 7's review-queue budgets against a production server (`next start`) on PostgreSQL:
//   browser: submit-and-next in Debian's Chromium — the keypress that accepts a task → the next
//            task's id in the page (and painted), with the next task prefetched (≤ 150 ms)
//   load:    `--reviewers` API clients (one token each) working one queue at one decision per
//            second each, as the screen does: the first holds and their member data, then one
//            request per decision (`POST /queues/{id}/decisions`: the decision, the next holds, the
//            member data not yet had, the progress every 3 s); errors and p50/p95 per request
//            (≤ 250 ms p95, no errors)
// A scratch database (`rst_review_bench_<pid>`, or `--name`) gets a demo run of --tasks accepted tasks; it is
// dropped at the end unless --keep. Results go to bench/out/review.json. The CPU seconds the server
// and its database backends spent during the load are given too: on a shared machine they compare
// two versions better than wall times do.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import type { QueueDecisionFollowUpJson, QueueJson, QueueNextJson, QueueTaskJson } from "@/lib/api/types";

const { values: args } = parseArgs({
  options: {
    port: { type: "string", default: "3404" },
    tasks: { type: "string", default: "2000" },
    reviewers: { type: "string", default: "50" },
    seconds: { type: "string", default: "30" },
    /** Seconds of the same load before the measured window (a fresh server loads modules and compiles). */
    warmup: { type: "string", default: "5" },
    presses: { type: "string", default: "20" },
    admin: { type: "string", default: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" },
    build: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    /** Only the load test. */
    "skip-browser": { type: "boolean", default: false },
    /** Profile the server (node --cpu-prof) into this directory; written when it stops. */
    "cpu-prof": { type: "string", default: "" },
    /** The scratch database's name (a shared server's naming rule); `rst_review_bench_<pid>` by default. */
    name: { type: "string", default: "" },
    /** An existing scratch database of an earlier --keep run: no new data is made. */
    reuse: { type: "string", default: "" },
    out: { type: "string", default: "bench/out" },
  },
});

const ADMIN = { email: "bench@rst-curator.local", password: "bench-review-password-0" };
const base = `http://127.0.0.1:${args.port}`;
const name = args.reuse || args.name || `rst_review_bench_${process.pid}`;
const dbUrl = new URL(args.admin);
dbUrl.pathname = `/${name}`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "rst-bench-review-"));
const serverEnv = {
  ...process.env,
  DATABASE_URL: dbUrl.toString(),
  DEMO_TASKS: args.tasks,
  DEMO_DIR: path.join(work, "demo-run"),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  NEXT_TELEMETRY_DISABLED: "1",
};

function cli(cliArgs: string[]): string {
  return execFileSync(process.execPath, ["bin/rst-curator.js", ...cliArgs], { env: serverEnv, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
}

async function startServer(): Promise<ChildProcess> {
  if (args.build || !fs.existsSync(".next/BUILD_ID")) execFileSync("npx", ["next", "build"], { stdio: "inherit", env: serverEnv });
  const log = fs.openSync(path.join(args.out, "review-server.log"), "w");
  // Node itself runs next (no npx in between), so that --cpu-prof profiles the server.
  const prof = args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`] : [];
  const server = spawn(process.execPath, [...prof, "node_modules/next/dist/bin/next", "start", "-p", args.port], { env: serverEnv, stdio: ["ignore", log, log], detached: true });
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

async function stopServer(server: ChildProcess): Promise<void> {
  // End the whole group we started (next may start workers of its own), and wait for it: a
  // profile is written as the server exits.
  if (!server.pid || server.exitCode !== null) return;
  const exited = new Promise((r) => server.once("exit", r));
  process.kill(-server.pid, "SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

/** CPU seconds used so far by the processes of a group (the server) or by the backends of a database (Linux /proc, 100 ticks/s). */
function cpuSeconds(match: { group: number } | { database: string }): number {
  let ticks = 0;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if ("group" in match ? Number(fields[2]) !== match.group : !fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(` ${match.database} `)) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / 100;
}

/** One request (started `at`); `part`: a moment inside one (the first line of a streamed answer), not a request of its own. */
type Sample = { kind: string; at: number; ms: number; status: number; part?: boolean };

async function call<T>(samples: Sample[], kind: string, token: string, method: string, url: string, body?: unknown): Promise<{ status: number; json: T | null }> {
  const started = performance.now();
  let status = 0;
  let json: T | null = null;
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    status = res.status;
    json = (await res.json()) as T;
  } catch {
    status = 0;
  }
  samples.push({ kind, at: started, ms: performance.now() - started, status });
  return { status, json };
}

function pct(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0).toFixed(1));
}

function summary(values: number[]) {
  return { n: values.length, p50: pct(values, 50), p95: pct(values, 95), p99: pct(values, 99), max: pct(values, 100) };
}

/** Reads an NDJSON answer line by line: when its first line came (ms after `started`), and every line. */
async function readLines(res: Response, started: number): Promise<{ firstMs: number; lines: unknown[] }> {
  let firstMs = 0;
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    if (firstMs === 0 && text.includes("\n")) firstMs = performance.now() - started;
  }
  return { firstMs, lines: text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown) };
}

/**
 * One reviewer working the queue through the API at one decision per second, as the screen does:
 * the first holds and their member data, then per decision one `POST /queues/{id}/decisions`
 * that answers the decision (first line) and then the next holds with the member data not yet
 * had (second line), asking for the progress in it at most every 3 s.
 */
async function reviewer(token: string, queueId: number, until: number, samples: Sample[]): Promise<void> {
  // Reviewers arrive at their own moment within the first second, not all at once.
  await new Promise((r) => setTimeout(r, Math.random() * 1000));
  const cache = new Map<number, Promise<QueueTaskJson | undefined>>();
  // As the screen's query cache: a member being fetched is not asked for again.
  const load = (taskId: number) => {
    let item = cache.get(taskId);
    if (!item) {
      item = call<QueueTaskJson>(samples, "member data", token, "GET", `/api/v1/queues/${queueId}/tasks/${taskId}`).then((r) => (r.status === 200 && r.json ? r.json : undefined));
      cache.set(taskId, item);
    }
    return item;
  };
  let next = (await call<QueueNextJson>(samples, "next", token, "POST", `/api/v1/queues/${queueId}/next?prefetch=1`)).json;
  if (next?.upcoming) void load(next.upcoming.task_id);
  let tick = performance.now();
  let progressAt = 0;
  while (performance.now() < until && next?.current) {
    const current = next.current;
    const item = await load(current.task_id);
    if (!item) break;
    const progress = performance.now() - progressAt >= 3000;
    if (progress) progressAt = performance.now();
    const started = performance.now();
    let status = 0;
    let moved: QueueNextJson | null = null;
    try {
      const res = await fetch(`${base}/api/v1/queues/${queueId}/decisions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, accept: "application/x-ndjson", "content-type": "application/json" },
        body: JSON.stringify({
          task_id: current.task_id,
          decision: Math.random() < 1 / 3 ? "needs-changes" : "accept",
          base_version: item.task.version,
          have: [...cache.keys()],
          progress,
        }),
      });
      status = res.status;
      if (status === 201) {
        const { firstMs, lines } = await readLines(res, started);
        samples.push({ kind: "decision (its first line)", at: started, ms: firstMs, status, part: true });
        const follow = lines[1] as QueueDecisionFollowUpJson | undefined;
        if (!follow || !("next" in follow)) status = 500;
        else {
          moved = follow.next;
          for (const m of follow.members) cache.set(m.task.id, Promise.resolve(m));
        }
      } else await res.text();
    } catch {
      status = 0;
    }
    samples.push({ kind: progress ? "decision, next, member data, progress" : "decision, next, member data", at: started, ms: performance.now() - started, status });
    cache.delete(current.task_id);
    next = moved;
    tick += 1000;
    const wait = tick - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

async function loadTest(adminToken: string, serverGroup: number): Promise<Record<string, unknown>> {
  const n = Number(args.reviewers);
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/api/v1/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: `reviewer-${i}`, role: "reviewer" }),
    });
    tokens.push(((await res.json()) as { token: string }).token);
  }
  // Every task of the run (3,632 for 2,000 accepted): 50 reviewers at one a second for 35 s must not run out.
  const queue = await createQueue(adminToken, "bench load", "run=demo");
  process.stderr.write(`load: ${n} reviewers on a queue of ${queue.total} tasks for ${args.seconds} s …\n`);
  // One run of `warmup + seconds`: the reviewers work on without a break, and only what starts
  // after the warm-up is measured (requests, decisions and the CPU the server and database use).
  const all: Sample[] = [];
  const measureFrom = performance.now() + Number(args.warmup) * 1000;
  const until = measureFrom + Number(args.seconds) * 1000;
  let cpu0 = { server: 0, database: 0 };
  let load0 = os.loadavg();
  const mark = setTimeout(() => {
    cpu0 = { server: cpuSeconds({ group: serverGroup }), database: cpuSeconds({ database: name }) };
    load0 = os.loadavg();
  }, Number(args.warmup) * 1000);
  await Promise.all(tokens.map((t) => reviewer(t, queue.id, until, all)));
  clearTimeout(mark);
  const cpu = { server: cpuSeconds({ group: serverGroup }) - cpu0.server, database: cpuSeconds({ database: name }) - cpu0.database };
  const samples = all.filter((s) => s.at >= measureFrom);
  const decisionRequests = samples.filter((s) => s.kind.startsWith("decision, "));
  const decisions = { n: decisionRequests.filter((s) => s.status === 201).length, conflicts: decisionRequests.filter((s) => s.status === 409).length };
  const load1 = os.loadavg();
  // Every decision went to a task only its reviewer held: no two reviewers decided one task.
  const requests = samples.filter((s) => !s.part);
  const errors = requests.filter((s) => s.status === 0 || s.status >= 400);
  const kinds = [...new Set(samples.map((s) => s.kind))];
  return {
    reviewers: n,
    seconds: Number(args.seconds),
    warmup_seconds: Number(args.warmup),
    queue_tasks: queue.total,
    decisions: decisions.n,
    conflicts: decisions.conflicts,
    requests: requests.length,
    errors: errors.length,
    server_cpu_s: Number(cpu.server.toFixed(2)),
    database_cpu_s: Number(cpu.database.toFixed(2)),
    cpu_ms_per_decision: decisions.n ? Math.round((1000 * (cpu.server + cpu.database)) / decisions.n) : null,
    load_average_before: load0.map((x) => Number(x.toFixed(2))),
    load_average_after: load1.map((x) => Number(x.toFixed(2))),
    error_statuses: [...new Set(errors.map((e) => e.status))],
    all: summary(requests.map((s) => s.ms)),
    ...Object.fromEntries(kinds.map((k) => [k, summary(samples.filter((s) => s.kind === k).map((s) => s.ms))])),
  };
}

async function createQueue(adminToken: string, queueName: string, filter: string): Promise<QueueJson> {
  const res = await fetch(`${base}/api/v1/queues`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: queueName, filter }),
  });
  if (res.status !== 201) throw new Error(`queue: ${res.status} ${await res.text()}`);
  return (await res.json()) as QueueJson;
}

declare global {
  interface Window {
    __submit?: { key?: number; dom?: number; painted?: number; from?: string };
  }
}

/** Keypress `a` → the next task's id in the DOM, and the frame after, in Chromium. */
async function browserTest(adminToken: string): Promise<Record<string, unknown>> {
  const queue = await createQueue(adminToken, "bench browser", "run=demo&status=accepted&round_min=12");
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const signIn = await context.request.post(`${base}/api/auth/sign-in/email`, { data: ADMIN, headers: { origin: base } });
  if (signIn.status() !== 200) throw new Error(`sign-in: ${signIn.status()}`);
  const page = await context.newPage();
  let inFlight = 0;
  page.on("request", () => inFlight++);
  page.on("requestfinished", () => inFlight--);
  page.on("requestfailed", () => inFlight--);
  await page.addInitScript(() => {
    window.addEventListener(
      "keydown",
      (e) => {
        if (e.key !== "a") return;
        const from = document.querySelector("[data-task-id]")?.getAttribute("data-task-id") ?? "";
        const probe: NonNullable<Window["__submit"]> = { key: performance.now(), from };
        window.__submit = probe;
        const observer = new MutationObserver(() => {
          const now = document.querySelector("[data-task-id]")?.getAttribute("data-task-id");
          if (now && now !== from && probe.dom === undefined) {
            probe.dom = performance.now();
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => (probe.painted = performance.now()), 0));
          }
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-task-id"] });
      },
      { capture: true },
    );
  });
  page.setDefaultTimeout(30_000);
  await page.goto(`${base}/review/${queue.id}`);
  const toDom: number[] = [];
  const toPaint: number[] = [];
  const quiet = async () => {
    // The prefetch of the upcoming task (and the progress refresh) has landed: no request in flight for 300 ms.
    let since = performance.now();
    const started = performance.now();
    while (performance.now() - since < 300 && performance.now() - started < 10_000) {
      if (inFlight > 0) since = performance.now();
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  for (let i = 0; i < Number(args.presses); i++) {
    await page.locator("[data-task-id]").waitFor();
    await page.getByRole("button", { name: "Accept", exact: true }).and(page.locator(":enabled")).waitFor();
    await quiet();
    await page.keyboard.press("a");
    await page.waitForFunction(() => window.__submit?.painted !== undefined, undefined, { timeout: 30_000, polling: 20 });
    const probe = await page.evaluate(() => window.__submit);
    if (probe?.key !== undefined && probe.dom !== undefined && probe.painted !== undefined) {
      toDom.push(probe.dom - probe.key);
      toPaint.push(probe.painted - probe.key);
    }
  }
  await page.screenshot({ path: path.join(args.out, "review-queue.png") });
  await browser.close();
  return { presses: toDom.length, "keypress → next task in the DOM (ms)": summary(toDom), "keypress → next frame painted (ms)": summary(toPaint) };
}

async function main(): Promise<void> {
  fs.mkdirSync(args.out, { recursive: true });
  if (!args.reuse) execFileSync("psql", [args.admin, "-qc", `CREATE DATABASE ${name}`]);
  let server: ChildProcess | null = null;
  try {
    process.stderr.write(`preparing ${name}: a demo run of ${args.tasks} accepted tasks …\n`);
    if (!args.reuse) cli(["prepare"]);
    const adminToken = cli(["token", "create", "--name", "bench", "--role", "admin"]).trim();
    server = await startServer();
    const browserResult = args["skip-browser"] ? null : await browserTest(adminToken);
    process.stderr.write(`${JSON.stringify(browserResult, null, 2)}\n`);
    const load = await loadTest(adminToken, server.pid ?? 0);
    const result = {
      machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? "", memory_gb: Math.round(os.totalmem() / 2 ** 30), node: process.version },
      database: "PostgreSQL (next start, DATABASE_URL)",
      tasks: Number(args.tasks),
      browser: browserResult,
      load,
    };
    fs.writeFileSync(path.join(args.out, "review.json"), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    if (server) await stopServer(server);
    if (!args.keep && !args.reuse) {
      await new Promise((r) => setTimeout(r, 1000));
      execFileSync("psql", [args.admin, "-qc", `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
