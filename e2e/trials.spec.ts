// Sandbox validation on the task page (issue 5): a task with a failing parent-solution check →
// its failing test → the line of the verifier log where it failed; two trials compared; the
// run's validation page; malformed and hostile trials shown as what they are, inertly.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import type { TaskListJson, TrialJson } from "@/lib/api/types";
import { writeFixtureRun, writeProblemTrials } from "../lib/ingest/fixtures";
import { uploadRunDirectory } from "./upload";

const PROBLEM_RUN = "trials-e2e";

test.describe.configure({ mode: "serial" });

let problemTask = 0;

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  const dir = writeFixtureRun(PROBLEM_RUN);
  writeProblemTrials(dir, "s1");
  try {
    await uploadRunDirectory(request, dir, PROBLEM_RUN, { headers: { origin: baseURL ?? "" } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const list = (await (await request.get(`/api/v1/tasks?run=${PROBLEM_RUN}&q=s1`)).json()) as TaskListJson;
  problemTask = list.items.find((t) => t.task_id === "s1")?.id ?? 0;
  expect(problemTask).toBeGreaterThan(0);
});

/** Fails the test on any dialog, and collects requests that leave the app's origin. */
function guard(page: Page, baseURL: string): string[] {
  const foreign: string[] = [];
  page.on("dialog", (d) => {
    throw new Error(`a browser dialog opened: ${d.message()}`);
  });
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.origin !== new URL(baseURL).origin) foreign.push(r.url());
  });
  return foreign;
}

/** A demo task whose parent-solution run failed a test (as it should), found through the API. */
async function taskWithFailingParentCheck(page: Page): Promise<{ task: number; trial: TrialJson }> {
  for (const round of [3, 4, 5, 6, 2, 7]) {
    const list = (await (await page.request.get(`/api/v1/tasks?run=demo&round=${round}&status=accepted&limit=40`)).json()) as TaskListJson;
    for (const t of list.items) {
      const { items } = (await (await page.request.get(`/api/v1/tasks/${t.id}/trials`)).json()) as { items: TrialJson[] };
      const trial = items.find((x) => x.check === "parent-solution" && x.tests.some((s) => s.status === "failed" && s.log_line !== null));
      if (trial) return { task: t.id, trial };
    }
  }
  throw new Error("the demo run has no parent-solution trial with a located failing test");
}

test("a failing parent-solution check: from the task to the failing test's line in the verifier log", async ({ page, baseURL }) => {
  const foreign = guard(page, baseURL ?? "");
  const { task, trial } = await taskWithFailingParentCheck(page);
  const failing = trial.tests.find((s) => s.status === "failed" && s.log_line !== null);
  if (!failing || failing.log_line === null) throw new Error("no failing test");

  await page.goto(`/tasks/${task}`);
  const section = page.getByRole("region", { name: "Validation trials" });
  const row = section.locator(`[data-trial="${trial.ext_id}"]`);
  await expect(row.getByText("parent solution")).toBeVisible();
  // Failing tests are expected of a parent-solution run: the verdict says so, and the row is closed.
  await expect(row.getByText("as expected")).toBeVisible();
  await row.getByRole("button", { expanded: false }).click();
  const testLink = row.getByRole("link", { name: failing.name, exact: true });
  await expect(testLink).toBeVisible();
  // failing tests come first
  await expect(row.locator("tbody tr").first()).toContainText("failed");
  await page.screenshot({ path: "e2e/screenshots/task-trials.png" });

  await testLink.click();
  await expect(page).toHaveURL(new RegExp(`/trials/${trial.id}/logs/verifier/test-stdout\\.txt#L${failing.log_line + 1}$`));
  const line = page.locator(`[data-line="${failing.log_line + 1}"]`);
  await expect(line).toBeInViewport();
  // the line a test links to is where its failure is reported: the pytest section header
  await expect(line).toContainText(failing.name.split("::").pop() ?? failing.name);
  expect(foreign).toEqual([]);
});

test("two trials of a task compared: rewards, per-test outcomes, verifier output", async ({ page }) => {
  const { task, trial } = await taskWithFailingParentCheck(page);
  await page.goto(`/tasks/${task}`);
  const section = page.getByRole("region", { name: "Validation trials" });
  const { items } = (await (await page.request.get(`/api/v1/tasks/${task}/trials`)).json()) as { items: TrialJson[] };
  const oracle = items.find((t) => t.check === "oracle");
  if (!oracle) throw new Error("no oracle trial");
  await section.getByRole("checkbox", { name: `Pick ${oracle.ext_id} to compare` }).check();
  await section.getByRole("checkbox", { name: `Pick ${trial.ext_id} to compare` }).check();
  await section.getByRole("link", { name: "Compare 2" }).click();
  await expect(page.getByRole("heading", { name: "Compare trials" })).toBeVisible();
  const outcomes = page.getByRole("region", { name: "Per-test outcomes" });
  const failing = trial.tests.filter((s) => s.status === "failed");
  // the tests the parent's solution failed are the disagreements, listed first
  await expect(outcomes.getByText(`${failing.length} of`)).toBeVisible();
  await expect(outcomes.locator("tbody tr").first()).toContainText("failed");
  await expect(page.getByRole("region", { name: "Verifier output diff" }).locator(".bg-ok-soft, .bg-bad-soft").first()).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/trials-compare.png", fullPage: true });
});

test("malformed and hostile trials: errors told apart, problems named, bytes inert", async ({ page, baseURL }) => {
  const foreign = guard(page, baseURL ?? "");
  await page.goto(`/tasks/${problemTask}`);
  const section = page.getByRole("region", { name: "Validation trials" });
  const infra = section.locator('[data-trial="infra"]');
  await expect(infra.getByText("infrastructure error", { exact: true })).toBeVisible();
  await expect(infra.getByText("Infrastructure error — not a verifier verdict")).toBeVisible();
  const rewardText = section.locator('[data-trial="reward-text"]');
  await expect(rewardText.getByText("no reward", { exact: true })).toBeVisible();
  await expect(rewardText.getByText(/reward\.txt: holds "PASSED\\n", not a number/)).toBeVisible();
  // The skipped trials are not shown as trials at all (the import reported them).
  await expect(section.locator('[data-trial="no-result"], [data-trial="bad-json"]')).toHaveCount(0);

  const hostile = section.locator('[data-trial="hostile"]');
  await hostile.getByRole("button", { expanded: false }).click();
  await hostile.getByRole("link", { name: "verifier/test-stdout.txt" }).click();
  await expect(page.locator('[data-line="1"]')).toContainText("nul:NUL:end"); // NUL drawn as a marker
  await expect(page.locator('[data-line="2"]')).toContainText("click me");
  await expect(page.locator("a[href^='javascript']")).toHaveCount(0);
  await expect(page.locator('[data-line="3"]')).toHaveText(/progress 100%$/);
  expect(foreign).toEqual([]);
});

test("the run's validation: outcomes per round, recurring exceptions, tasks never validated", async ({ page }) => {
  await page.goto("/validation?run=demo");
  const outcomes = page.getByRole("region", { name: "Outcomes per round" });
  await expect(outcomes.getByRole("cell", { name: "R1", exact: true })).toBeVisible();
  await expect(outcomes.getByRole("columnheader", { name: "parent solution" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Recurring exceptions" })).toBeVisible();
  await page.screenshot({ path: "e2e/screenshots/validation.png", fullPage: true });
  await page.goto(`/validation?run=${PROBLEM_RUN}`);
  const exceptions = page.getByRole("region", { name: "Recurring exceptions" });
  await expect(exceptions.getByText("SandboxBuildFailedError")).toBeVisible();
  await exceptions.getByRole("link", { name: "docker build failed: exit 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${problemTask}#trials$`));
});
