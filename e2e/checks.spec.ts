// Automatic flags (issue 8, C9): the demo run imported at e2e start is checked by lib/checks. The
// Flags page counts every rule it exhibits as the API does; from the page to the evidence line of
// a `parent-solution-passes` flag in two clicks; one flag of every other rule opens its evidence
// (a diff line, a file line, a log line) showing what the flag names; a dismissed automatic flag
// stays dismissed after the same content is imported again.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import type { FlagCountsJson, FlagJson, FlagListJson, TaskDetailJson, TrialJson } from "@/lib/api/types";
import { FLAG_RULES } from "@/lib/domain";
import { E2E_DATA_DIR } from "./auth";
import { shot } from "./shots";
import { packRun, uploadRunDirectory } from "./upload";


/** The demo run `prepare` generated and imported before the server started (playwright.config.ts). */
const RUN = "demo";
const DEMO_DIR = path.join(E2E_DATA_DIR, "demo-run");

let counts: FlagCountsJson;

test.beforeAll(async ({ request }) => {
  counts = (await (await request.get(`/api/v1/flags/counts?run=${RUN}`)).json()) as FlagCountsJson;
});

const list = (page: Page) => page.getByRole("table", { name: /^Flags\./ });
const perRule = (page: Page) => page.getByRole("region", { name: "Flags per rule" });
const ruleButton = (page: Page, rule: string) => perRule(page).getByRole("button", { name: new RegExp(`^${rule}\\b`) });

/** The flag a list row shows, as the API has it. */
async function flagOf(page: Page, row: ReturnType<Page["locator"]>): Promise<FlagJson> {
  const id = await row.getAttribute("data-flag");
  const res = await page.request.get(`/api/v1/flags/${id}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as FlagJson;
}

/** A pytest node id's last part: what a log line and a `def` spell. */
const testName = (t: string) => t.split("::").pop() ?? t;

/**
 * After a click on the flag's evidence link: the page is the one its evidence names, the named
 * line is in view, highlighted, and shows what the flag is about. Returns the kind of landing.
 */
async function expectEvidence(page: Page, flag: FlagJson): Promise<string> {
  const e = flag.evidence;
  const href = flag.evidence_href;
  await expect(page).toHaveURL((u) => `${u.pathname}${u.search}${u.hash}` === href);

  const log = /^\/trials\/(\d+)\/logs\/(.+)#L(\d+)$/.exec(href);
  if (log) {
    expect(Number(log[1])).toBe(e.trial_id);
    expect(decodeURIComponent(log[2] ?? "")).toBe(e.log);
    const line = page.locator(`[data-line="${log[3]}"]`);
    await expect(line).toBeInViewport();
    await expect(line).toHaveAttribute("aria-current", "location");
    // The line names the test the flag names: its outcome (`PASSED …`), or the head of its
    // failure's section, whose assertion (the flag's excerpt) shows below it.
    if (e.test) await expect(line).toContainText(testName(e.test));
    const text = (await line.textContent()) ?? "";
    if (!/PASSED|FAILED|SKIPPED|ERROR/.test(text)) {
      expect(text).toMatch(/^\d+_{3,} \S+ _{3,}$/);
      expect(e.excerpt, "a failure's evidence quotes its assertion").toBeTruthy();
      await expect(page.locator("[data-line]").filter({ hasText: e.excerpt ?? "" }).first()).toBeInViewport();
    }
    return "log-line";
  }
  const diff = /^\/tasks\/(\d+)\/diff\?against=(\d+)&file=([^#]+)(?:#(f(\d+)-[LO](\d+)))?$/.exec(href);
  if (diff) {
    expect(Number(diff[1])).toBe(flag.task_id);
    expect(Number(diff[2])).toBe(e.compare_task_id);
    expect(decodeURIComponent(diff[3] ?? "")).toBe(e.file);
    if (!diff[4]) {
      // No line: the file's diff is shown.
      await expect(page.getByRole("region", { name: `Diff of ${e.file}` })).toBeInViewport();
      if (e.test) await expect(page.getByRole("region", { name: `Diff of ${e.file}` })).toContainText(testName(e.test));
      return "diff-file";
    }
    // The anchor's file index is the file the evidence names.
    await expect(page.locator(`section#f${diff[5]}`)).toHaveAttribute("aria-label", `Diff of ${e.file}`);
    const line = page.locator(`[id="${diff[4]}"]`);
    await expect(line).toBeInViewport();
    await expect(line).toHaveAttribute("aria-current", "location");
    if (e.excerpt) await expect(line).toContainText(e.excerpt.trim());
    else if (e.test) await expect(line).toContainText(testName(e.test));
    return "diff-line";
  }
  const whole = /^\/trials\/(\d+)\/logs\/([^#]+)$/.exec(href);
  if (whole) {
    // A log without a line (a trial that wrote no test results): the log from its start.
    expect(Number(whole[1])).toBe(e.trial_id);
    expect(decodeURIComponent(whole[2] ?? "")).toBe(e.log);
    await expect(page.getByRole("heading", { name: e.log })).toBeVisible();
    await expect(page.locator('[data-line="1"]')).toBeInViewport();
    return "log";
  }
  const named = /^\/tasks\/(\d+)\?file=([^#]+)#files$/.exec(href);
  if (named) {
    expect(Number(named[1])).toBe(flag.task_id);
    expect(decodeURIComponent(named[2] ?? "")).toBe(e.file);
    await expect(page.locator("#files")).toBeInViewport();
    return "file";
  }
  const file = /^\/tasks\/(\d+)\?file=([^#]+)#L(\d+)$/.exec(href);
  if (file) {
    expect(Number(file[1])).toBe(flag.task_id);
    expect(decodeURIComponent(file[2] ?? "")).toBe(e.file);
    const line = page.locator(`#L${file[3]}`);
    await expect(line).toBeInViewport();
    await expect(line).toHaveAttribute("aria-current", "location");
    if (e.excerpt) await expect(line).toContainText(e.excerpt.trim());
    return "file-line";
  }
  const trial = /^\/tasks\/(\d+)#trial-(\d+)$/.exec(href);
  if (trial) {
    expect(Number(trial[2])).toBe(e.trial_id);
    await expect(page.locator(`#trial-${trial[2]}`)).toBeInViewport();
    return "trial";
  }
  expect(href).toBe(`/tasks/${flag.task_id}`);
  return "task";
}

test("the Flags page counts every rule the demo run exhibits, as the API does", async ({ page }) => {
  // The generator's ground truth: the rules it planted problems for, each found by lib/checks on import.
  const planted = new Set(
    fs
      .readFileSync(path.join(DEMO_DIR, "truth.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { rule: string }).rule),
  );
  expect(planted.size).toBeGreaterThanOrEqual(5);
  for (const rule of planted) expect(counts.rules.find((r) => r.rule === rule)?.open, rule).toBeGreaterThan(0);
  const exhibited = counts.rules.filter((r) => r.open + r.outdated + r.dismissed + r.resolved > 0);
  await page.goto(`/flags?run=${RUN}`);
  for (const r of exhibited) {
    const button = ruleButton(page, r.rule);
    await expect(button).toBeVisible();
    await expect(button.locator("span.tabular-nums")).toHaveText(r.open.toLocaleString("en-US"));
  }
  await expect(perRule(page).getByRole("button")).toHaveCount(exhibited.length);
  await shot(page, "checks-flags-page");
});

test("two clicks from the Flags page to the log line of a parent-solution-passes flag", async ({ page }) => {
  await page.goto(`/flags?run=${RUN}`);
  // Click 1: the rule's bar filters the list.
  await ruleButton(page, "parent-solution-passes").click();
  await expect(page).toHaveURL(/rule=parent-solution-passes/);
  const first = list(page).locator("tbody tr").first();
  await expect(first).toContainText("parent-solution-passes");
  const flag = await flagOf(page, first);
  expect(flag.rule).toBe("parent-solution-passes");
  // Click 2: its evidence.
  await first.locator("[data-evidence]").click();
  expect(await expectEvidence(page, flag)).toBe("log-line");
  // The message says the parent's solution earns full reward: the line shows a test it passes
  // (or one skipped, which is why it passes).
  await expect(page.locator('[aria-current="location"]')).toContainText(/PASSED|SKIPPED/);
  await shot(page, "checks-evidence-parent-solution-passes");
});

for (const rule of FLAG_RULES.filter((r) => r !== "parent-solution-passes")) {
  test(`a ${rule} flag opens its evidence`, async ({ page }) => {
    const c = counts.rules.find((r) => r.rule === rule);
    test.skip(!c || c.open === 0, `the demo run has no open ${rule} flag`);
    await page.goto(`/flags?run=${RUN}&rule=${rule}`);
    const first = list(page).locator("tbody tr").first();
    await expect(first).toContainText(rule);
    const flag = await flagOf(page, first);
    await first.locator("[data-evidence]").click();
    const kind = await expectEvidence(page, flag);
    test.info().annotations.push({ type: "evidence", description: `${rule}: ${kind} ${flag.evidence_href}` });
    await shot(page, `checks-evidence-${rule}`);
  });
}

/**
 * Uploads the demo run's directory again, gzipped without compression (a valid archive whose size
 * does not depend on how well the generated run compresses): larger than the 10 MB of a request
 * body that Next's proxy would buffer (proxyClientMaxBodySize). The ingest route is kept out of the
 * proxy, and this upload proves the archive arrives whole.
 */
async function reuploadDemo(request: APIRequestContext, origin: string, dir = DEMO_DIR): Promise<Record<string, unknown>> {
  const archive = await packRun(dir, 0);
  expect(archive.length, "the demo upload must exceed the proxy's 10 MB body limit").toBeGreaterThan(10 * 1024 * 1024);
  return uploadRunDirectory(request, dir, RUN, { headers: { origin }, archive, timeout: 540_000 });
}

test("a dismissed automatic flag stays dismissed after the same run is imported again, and after its task is checked again", async ({ page, request, baseURL }) => {
  test.setTimeout(600_000);
  await page.goto(`/flags?run=${RUN}&rule=parent-solution-passes`);
  const first = list(page).locator("tbody tr").first();
  const flag = await flagOf(page, first);
  const before = (await (await request.get(`/api/v1/tasks/${flag.task_id}`)).json()) as TaskDetailJson;
  await first.getByRole("button", { name: "Dismiss" }).click();
  const reason = page.getByLabel("Why it is not a problem");
  await expect(reason).toBeFocused();
  await reason.fill("expected: the parent's step already writes what the new test reads");
  await reason.press("Enter");
  await expect(list(page).locator(`tr[data-flag="${flag.id}"]`)).toHaveCount(0);
  const after = (await (await request.get(`/api/v1/tasks/${flag.task_id}`)).json()) as TaskDetailJson;
  expect(after.open_flags).toBe(before.open_flags - 1);

  /** The flag is still dismissed, with its reason; the task's count of open flags did not grow. */
  const stillDismissed = async () => {
    const again = (await (await request.get(`/api/v1/flags/${flag.id}`)).json()) as FlagJson;
    expect(again).toMatchObject({ status: "dismissed", resolution: "expected: the parent's step already writes what the new test reads" });
    const task = (await (await request.get(`/api/v1/tasks/${flag.task_id}`)).json()) as TaskDetailJson;
    expect(task.open_flags).toBe(after.open_flags);
    // No second open flag of the rule on the task.
    const open = (await (await request.get(`/api/v1/flags?run=${RUN}&rule=parent-solution-passes&task=${flag.task_id}&status=open`)).json()) as FlagListJson;
    expect(open.items).toEqual([]);
  };

  // The same bytes again: the import sees nothing new.
  const same = await reuploadDemo(request, baseURL ?? "");
  expect(same).toMatchObject({ unchanged: true, tasksUnchanged: same.candidates });
  await stillDismissed();

  // The same task content with one more trial of the parent's solution: the import checks the task
  // again, the rule finds the same problem, and the store keeps the reviewer's dismissal.
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "checks-e2e-"));
  try {
    fs.cpSync(DEMO_DIR, copy, { recursive: true });
    const { items: trials } = (await (await request.get(`/api/v1/tasks/${flag.task_id}/trials`)).json()) as { items: TrialJson[] };
    const trial = trials.find((t) => t.id === flag.evidence.trial_id);
    if (!trial) throw new Error("the flag's trial is not listed");
    const from = path.join(copy, "trials", flag.task_ext_id, trial.ext_id);
    const to = path.join(copy, "trials", flag.task_ext_id, `${trial.ext_id}-again`);
    fs.cpSync(from, to, { recursive: true });
    const result = JSON.parse(fs.readFileSync(path.join(to, "result.json"), "utf8")) as Record<string, unknown>;
    fs.writeFileSync(path.join(to, "result.json"), JSON.stringify({ ...result, id: `${String(result.id)}-again`, trial_name: `${trial.ext_id}-again` }));
    const more = await reuploadDemo(request, baseURL ?? "", copy);
    expect(more).toMatchObject({ trialsNew: 1 });
    expect((more.checks as Record<string, number> | undefined)?.["parent-solution-passes"], "the import checked the task again").toBeGreaterThan(0);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
  await stillDismissed();
  await page.reload();
  await expect(list(page).locator(`tr[data-flag="${flag.id}"]`)).toHaveCount(0);
  await page.getByLabel("Status").selectOption("dismissed");
  await expect(list(page).locator(`tr[data-flag="${flag.id}"]`)).toContainText("dismissed");

  // Open again, so that a reused server (E2E reuses one outside CI) starts this spec as it was.
  const reopen = await request.patch(`/api/v1/flags/${flag.id}`, { data: { status: "open" }, headers: { origin: baseURL ?? "" } });
  expect(reopen.status(), await reopen.text()).toBe(200);
});
