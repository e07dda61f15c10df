// Flags (issue 8): the Flags page counts per rule and round, a cell filters the list, a flag opens
// its evidence (a diff line, a log line), a dismissal with a reason by keyboard holds after the
// run is imported again, and the task page's flags panel raises a flag with `f`. Seeded through
// the API: a small run uploaded by this spec, manual flags posted on it.
import fs from "node:fs";
import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import type { FlagCountsJson, FlagJson, TaskListJson, TrialJson } from "@/lib/api/types";
import { writeFixtureRun } from "../lib/ingest/fixtures";
import { storageState } from "./auth";
import { shot } from "./shots";
import { uploadRunDirectory } from "./upload";

/** A run of its own each time, so that a reused server (and its earlier flags) changes no count. */
const RUN = `flags-e2e-${Date.now().toString(36)}`;

test.describe.configure({ mode: "serial" });

let dir = "";
const task: Record<string, number> = {};
const flag: Record<string, FlagJson> = {};

async function post(request: APIRequestContext, origin: string, ext: string, body: object): Promise<FlagJson> {
  const res = await request.post(`/api/v1/tasks/${task[ext]}/flags`, { data: body, headers: { origin } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as FlagJson;
}

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  const origin = baseURL ?? "";
  dir = writeFixtureRun(RUN);
  await uploadRunDirectory(request, dir, RUN, { headers: { origin } });
  const list = (await (await request.get(`/api/v1/tasks?run=${RUN}&limit=50`)).json()) as TaskListJson;
  for (const t of list.items) task[t.task_id] = t.id;
  const { items: trials } = (await (await request.get(`/api/v1/tasks/${task.a1}/trials`)).json()) as { items: TrialJson[] };
  const oracle = trials.find((t) => t.check === "oracle");
  if (!oracle) throw new Error("no oracle trial for a1");

  flag.diff = await post(request, origin, "a1", {
    note: "The parent's solution passes the new test: it checks a file the parent already wrote.",
    severity: "high",
    evidence: { compare_task_id: task.s1, file: "tests/test_outputs.py", line: 4 },
  });
  flag.log = await post(request, origin, "a1", {
    note: "The oracle's log says PASSED before the step runs.",
    severity: "low",
    evidence: { trial_id: oracle.id, log: "verifier/test-stdout.txt", log_line: 1 },
  });
  flag.file = await post(request, origin, "b1", { note: "solve.sh line 3 does nothing.", evidence: { file: "solution/solve.sh", line: 3 } });
  flag.seed = await post(request, origin, "s2", { note: "The seed's instruction is vague.", severity: "low" });
});

test.afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const list = (page: Page) => page.getByRole("table", { name: /^Flags\./ });
const rowOf = (page: Page, f: FlagJson) => list(page).locator(`tr[data-flag="${f.id}"]`);

/** Presses j until `row` is selected: the rendered list takes keys only once the page is hydrated. */
async function selectWithJ(page: Page, row: Locator) {
  await expect(async () => {
    await page.keyboard.press("j");
    await expect(row).toHaveAttribute("aria-selected", "true", { timeout: 500 });
  }).toPass();
}

test("the Flags page: counts per rule and round, a cell filters the list, a flag opens its diff line", async ({ page }) => {
  await page.goto(`/flags?run=${RUN}`);
  const perRule = page.getByRole("region", { name: "Flags per rule" });
  await expect(perRule.getByRole("button", { name: /manual/ })).toContainText("4");
  const byRound = page.getByRole("region", { name: "Open per rule × round" });
  await expect(byRound.getByRole("button", { name: "1 open manual flags, round 0" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Open per rule × operator" }).getByRole("button", { name: "3 open manual flags, operator append-step" })).toBeVisible();
  await expect(list(page).locator("tbody tr")).toHaveCount(4);
  await shot(page, "flags-page");

  // Click 1: the cell of manual flags in round 1 filters the list to a1's two flags.
  await byRound.getByRole("button", { name: "2 open manual flags, round 1" }).click();
  await expect(page).toHaveURL(/rule=manual/);
  await expect(page).toHaveURL(/round=1/);
  await expect(list(page).locator("tbody tr")).toHaveCount(2);
  await expect(rowOf(page, flag.file as FlagJson)).toHaveCount(0);

  // Click 2: the evidence opens the diff against the parent at the flagged line.
  const diff = flag.diff as FlagJson;
  await rowOf(page, diff).getByRole("link", { name: "tests/test_outputs.py:4 (diff)" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.a1}/diff\\?against=${task.s1}&file=tests%2Ftest_outputs\\.py#f2-L4$`));
  const line = page.locator("#f2-L4");
  await expect(line).toBeInViewport();
  await expect(line).toContainText("out-1.txt");
});

test("a log line opens the log viewer at that line; a file line the task's file at that line", async ({ page }) => {
  await page.goto(`/flags?run=${RUN}&rule=manual&round=1`);
  await rowOf(page, flag.log as FlagJson).getByRole("link", { name: "verifier/test-stdout.txt:1" }).click();
  await expect(page).toHaveURL(/\/logs\/verifier\/test-stdout\.txt#L1$/);
  await expect(page.locator('[data-line="1"]')).toContainText("PASSED");

  // Enter opens the selected flag's evidence.
  await page.goto(`/flags?run=${RUN}&round=2`);
  await expect(list(page).locator("tbody tr")).toHaveCount(1);
  await selectWithJ(page, rowOf(page, flag.file as FlagJson));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.b1}\\?file=solution%2Fsolve\\.sh#L3$`));
  const line = page.locator("#L3");
  await expect(line).toBeInViewport();
  await expect(line).toContainText("mkdir -p /app");
});

test("dismissed by keyboard with a reason; it stays dismissed after the run is imported again", async ({ page, request, baseURL }) => {
  const diff = flag.diff as FlagJson;
  await page.goto(`/flags?run=${RUN}&rule=manual&round=1`);
  await expect(list(page).locator("tbody tr")).toHaveCount(2);
  // j moves down to the last row: the diff flag (posted first, so listed last).
  await selectWithJ(page, rowOf(page, diff));
  await page.keyboard.press("d");
  const reason = page.getByLabel("Why it is not a problem");
  await expect(reason).toBeFocused();
  // Keys typed into the reason do not act on the list.
  await reason.fill("expected: the parent wrote the same file, the new test checks its content");
  await shot(page, "flags-dismiss");
  await reason.press("Enter");
  await expect(rowOf(page, diff)).toHaveCount(0);
  await expect(list(page).locator("tbody tr")).toHaveCount(1);

  await page.getByLabel("Status").selectOption("dismissed");
  await expect(page).toHaveURL(/status=dismissed/);
  await expect(rowOf(page, diff)).toContainText("dismissed");
  const counts = (await (await page.request.get(`/api/v1/flags/counts?run=${RUN}`)).json()) as FlagCountsJson;
  expect(counts.rules.find((r) => r.rule === "manual")).toMatchObject({ open: 3, dismissed: 1 });

  await uploadRunDirectory(request, dir, RUN, { headers: { origin: baseURL ?? "" } });
  await page.reload();
  await expect(rowOf(page, diff)).toContainText("dismissed");
  const again = (await (await page.request.get(`/api/v1/flags/${diff.id}`)).json()) as FlagJson;
  expect(again).toMatchObject({ status: "dismissed", resolution: "expected: the parent wrote the same file, the new test checks its content" });
});

test("the task page's flags panel lists the task's flags and raises one with f", async ({ page }) => {
  await page.goto(`/tasks/${task.a1}`);
  const panel = page.getByRole("region", { name: "Flags" });
  await expect(panel.locator(`[data-flag="${flag.diff?.id}"]`)).toContainText("dismissed");
  await expect(panel.locator(`[data-flag="${flag.log?.id}"]`)).toContainText("open");
  await shot(page, "task-flags-panel");

  const dialog = page.getByRole("dialog", { name: "Flag this task" });
  // Until the page is hydrated nobody listens for f: press it until the dialog opens.
  await expect(async () => {
    if (!(await dialog.isVisible())) await page.keyboard.press("f");
    await expect(dialog).toBeVisible({ timeout: 500 });
  }).toPass();
  const note = dialog.getByLabel("What is wrong");
  await expect(note).toBeFocused();
  await expect(note).toHaveValue("");
  // An `f` typed into the note is text, not a second dialog.
  await note.pressSequentially("fix the flaky timeout");
  await dialog.getByLabel("Severity").selectOption("high");
  await note.press("Control+Enter");
  await expect(dialog).toBeHidden();
  await expect(panel.getByText("fix the flaky timeout")).toBeVisible();
  // The task table's badge counts it: a1's open log flag and the new one (the diff flag is dismissed).
  await page.goto(`/tasks?run=${RUN}&flag=manual`);
  const badge = page.getByRole("link", { name: /^2 open/ });
  await expect(badge).toBeVisible();
  await badge.hover();
  await expect(badge).toHaveAttribute("title", "2 open: manual");
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageState("viewer") });

  test("a viewer reads flags without actions; a note is text; a test's evidence opens its trial", async ({ page, browser, baseURL }) => {
    const admin = await browser.newContext({ storageState: storageState("admin") });
    const { items: trials } = (await (await admin.request.get(`/api/v1/tasks/${task.b1}/trials`)).json()) as { items: TrialJson[] };
    const nop = trials.find((t) => t.check === "nop");
    if (!nop) throw new Error("no nop trial for b1");
    const hostile = await post(admin.request, baseURL ?? "", "b1", {
      note: '<img src=x onerror="document.title=1"> **not bold**',
      evidence: { trial_id: nop.id, test: "test_out" },
    });
    await admin.close();
    page.on("dialog", (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });

    await page.goto(`/flags?run=${RUN}&task=${task.b1}`);
    const row = rowOf(page, hostile);
    await expect(row).toContainText('<img src=x onerror="document.title=1"> **not bold**');
    await expect(list(page).locator("img")).toHaveCount(0);
    await expect(list(page).getByRole("button", { name: /Dismiss|Resolve/ })).toHaveCount(0);

    await row.getByRole("link", { name: "test_out" }).click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${task.b1}#trial-${nop.id}$`));
    const trial = page.locator(`#trial-${nop.id}`);
    await expect(trial).toBeInViewport();
    // The linked trial opens by itself, showing its tests.
    await expect(trial.getByText("test_out").first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Flags" }).getByRole("button", { name: /Flag/ })).toHaveCount(0);
  });
});
