// Lineage and diffs (issue 4): a round-12 task's tree walked up to its seed with the keyboard, the
// parent diff in both layouts, a round-3 ancestor chosen from the lineage, the family and forest.
import { expect, test, type Page } from "@playwright/test";
import type { LineageJson, TaskListJson } from "@/lib/api/types";

async function shot(page: Page, name: string) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => {
      document.documentElement.dataset.theme = t;
    }, theme);
    await page.screenshot({ path: `e2e/screenshots/${name}${theme === "dark" ? "-dark" : ""}.png` });
  }
  await page.evaluate(() => {
    document.documentElement.dataset.theme = "light";
  });
}

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

  await page.goto("/forest");
  await expect(page.getByRole("region", { name: "Most productive seeds" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Rejection by operator" }).getByRole("row").nth(1)).toBeVisible();
  await shot(page, "lineage-forest");
});
