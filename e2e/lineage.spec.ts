// Lineage and diffs (issue 4): a round-12 task's tree walked up to its seed with the keyboard, the
// parent diff in both layouts, a round-3 ancestor chosen from the lineage, the family and forest.
import { expect, test } from "@playwright/test";
import { shot } from "./shots";
import type { LineageJson, TaskListJson } from "@/lib/api/types";

test.beforeEach(async ({ page }) => {
  page.on("dialog", () => {
    throw new Error("a browser dialog opened");
  });
});

test("a round-12 task: up to the seed by keyboard, parent diff, split view, a round-3 ancestor", async ({ page }) => {
  const list = (await (await page.request.get("/api/v1/tasks?round=12&status=accepted&limit=1")).json()) as TaskListJson;
  const task = list.items[0];
  expect(task, "the demo run has an accepted round-12 task").toBeDefined();
  if (!task) return;
  const lineage = (await (await page.request.get(`/api/v1/tasks/${task.id}/lineage`)).json()) as LineageJson;
  const seed = lineage.ancestors[0];
  const r3 = lineage.ancestors.find((a) => a.round === 3);
  expect(seed && r3).toBeTruthy();
  if (!seed || !r3) return;

  await page.goto(`/tasks/${task.id}`);
  const tree = page.getByRole("tree", { name: `Lineage of ${task.task_id}` });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText(task.task_id);
  const selected = tree.getByRole("treeitem", { selected: true });
  // The first key press once the tree is interactive (hydrated) moves to the parent.
  await expect(async () => {
    await tree.focus();
    await page.keyboard.press("ArrowUp");
    await expect(selected).not.toContainText(task.task_id, { timeout: 500 });
  }).toPass();
  for (let i = 1; i < lineage.ancestors.length; i++) await page.keyboard.press("ArrowUp");
  await expect(selected).toContainText(seed.task_id);
  await expect(page).toHaveURL(new RegExp(`[?&]node=${seed.id}\\b`));
  await shot(page, "lineage-task");
  await page.keyboard.press("End");
  await page.keyboard.press("Home");
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText(seed.task_id);

  await page.getByRole("link", { name: "Diff vs parent" }).click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}/diff$`));
  await expect(page.getByRole("heading", { name: "Diff", level: 1 })).toBeVisible();
  const solution = page.getByRole("region", { name: "Diff of solution/solve.sh" });
  await expect(solution).toContainText("modified");
  await expect(page.getByRole("region", { name: "What this step added" })).toContainText("Solution");
  await shot(page, "diff-parent");

  await page.getByRole("button", { name: "Split" }).click();
  await expect(page).toHaveURL(/view=split/);
  await expect(page.getByRole("button", { name: "Split" })).toHaveAttribute("aria-pressed", "true");
  await expect(solution.getByRole("region", { name: /split diff/ })).toBeVisible();
  await shot(page, "diff-split");

  await page.getByLabel("Compare with").selectOption(String(r3.id));
  await expect(page).toHaveURL(new RegExp(`against=${r3.id}`));
  await expect(page.getByRole("region", { name: /What \d+ rounds added/ })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(r3.task_id) }).first()).toBeVisible();
  await shot(page, "diff-r3");

  // A line number links to its line; opening the link scrolls there.
  const firstAdded = solution.getByRole("link", { name: /^new line \d+$/ }).last();
  const href = await firstAdded.getAttribute("href");
  expect(href).toMatch(/^#f0-L\d+$/);
  await page.goto(`${page.url()}${href ?? ""}`);
  await expect(page.locator(`[id="${href?.slice(1)}"]`)).toBeInViewport();
});

test("the diff keeps its layout through its own links and unfolds context a step at a time, by keyboard too", async ({ page }) => {
  const list = (await (await page.request.get("/api/v1/tasks?round=12&status=accepted&limit=1")).json()) as TaskListJson;
  const task = list.items[0];
  if (!task) throw new Error("no round-12 task");
  const lineage = (await (await page.request.get(`/api/v1/tasks/${task.id}/lineage`)).json()) as LineageJson;
  const seed = lineage.ancestors[0];
  if (!seed) throw new Error("no seed");

  await page.goto(`/tasks/${task.id}/diff`);
  await page.getByRole("button", { name: "Split" }).click();
  await expect(page).toHaveURL(/[?&]view=split/);
  const files = page.getByRole("navigation", { name: "Changed files" });
  const split = async (file: string) => {
    await expect(page.getByRole("button", { name: "Split" })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("region", { name: `Diff of ${file}` }).getByRole("region", { name: /split diff/ })).toBeVisible();
  };
  await files.getByRole("link", { name: /solve\.sh/ }).click();
  await expect(page).toHaveURL(/[?&]file=solution%2Fsolve\.sh/);
  await expect(page).toHaveURL(/[?&]view=split/);
  await split("solution/solve.sh");
  await expect(page.getByRole("region", { name: "Diff of instruction.md" })).toHaveCount(0);
  await files.getByRole("link", { name: /All files/ }).click();
  await expect(page).not.toHaveURL(/[?&]file=/);
  await expect(page.getByRole("region", { name: "Diff of instruction.md" })).toBeVisible();
  await split("solution/solve.sh");
  await page.getByRole("navigation", { name: "Related diffs" }).getByRole("link", { name: "Seed → task" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]against=${seed.id}\\b`));
  await expect(page).toHaveURL(/[?&]view=split/);
  await split("solution/solve.sh");
  await page.getByRole("navigation", { name: "Related diffs" }).getByRole("link", { name: "vs parent" }).click();
  await expect(page).not.toHaveURL(/against=/);
  await expect(page).toHaveURL(/[?&]view=split/);

  // The child extends its parent's solution near the end: a long unchanged run above the change.
  await page.getByRole("button", { name: "Unified" }).click();
  const solution = page.getByRole("region", { name: "Diff of solution/solve.sh" });
  const fold = solution.getByRole("group", { name: /unchanged lines hidden/ }).first();
  const hidden = async () => Number(/^(\d+) unchanged/.exec((await fold.getAttribute("aria-label")) ?? "")?.[1]);
  const before = await hidden();
  expect(before, "a fold long enough for two steps and the rest").toBeGreaterThan(45);
  const up = fold.getByRole("button", { name: /^Show 20 more lines up to line \d+$/ });
  await up.click();
  await expect(fold).toHaveAttribute("aria-label", new RegExp(`^${before - 20} unchanged`));
  await expect(up).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(fold).toHaveAttribute("aria-label", new RegExp(`^${before - 40} unchanged`));
  await expect(up).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(fold.getByRole("button", { name: /^Show all \d+ unchanged lines from line 1$/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(solution.getByRole("group", { name: /unchanged lines hidden, 1–/ })).toHaveCount(0);
  await expect(solution.getByRole("link", { name: "new line 1", exact: true })).toBeFocused();
  await shot(page, "diff-context-unfolded");
});

test("the family of a seed, filtered, and the forest of the run", async ({ page }) => {
  const list = (await (await page.request.get("/api/v1/tasks?round=12&status=accepted&limit=1")).json()) as TaskListJson;
  const task = list.items[0];
  if (!task) throw new Error("no round-12 task");
  await page.goto(`/families/${task.id}`);
  // Any task opens its family at the seed, with itself selected.
  await expect(page).toHaveURL(new RegExp(`/families/\\d+\\?node=${task.id}$`));
  const tree = page.getByRole("tree", { name: "Family tree" });
  await expect(tree.getByRole("treeitem", { selected: true })).toContainText(task.task_id);
  await expect(page.getByRole("navigation", { name: "Breadcrumb to the selected task" })).toContainText(task.task_id);
  await page.getByLabel("Status").selectOption("rejected");
  await expect(page.getByText(/of [\d,]+ match/)).toBeVisible();
  await shot(page, "lineage-family");

  await page.goto(`/tasks/${task.id}/steps`);
  await expect(page.getByRole("region", { name: "Seed → task, all rounds" })).toBeVisible();
  await shot(page, "lineage-steps");

  // The demo run by name: without one the forest shows the newest run, which another spec may have uploaded.
  await page.goto("/forest?run=demo");
  await expect(page.getByRole("region", { name: "Most productive seeds" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Rejection by operator" }).getByRole("row").nth(1)).toBeVisible();
  await shot(page, "lineage-forest");
});
