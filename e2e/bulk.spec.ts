// Bulk decisions and saved views on the task table (issue 7, part B2): the dialog's count is the
// table's, a double click applies once, a set that changed meanwhile is counted again before
// anything is written, and a saved view lists its count and opens its filter from anywhere.
import { expect, test, type Page } from "@playwright/test";
import type { ReviewJson, SavedViewJson, TaskListJson } from "@/lib/api/types";
import { storageState } from "./auth";
import { shot } from "./shots";
import { tableTotal } from "./table";

test.describe.configure({ mode: "serial" });
test.use({ storageState: storageState("reviewer") });

/** Pipeline-rejected demo tasks of one round: a small set the review spec's pool never touches. */
const rounds: { round: number; count: number }[] = [];

test.beforeAll(async ({ browser }) => {
  const ctx = await browser.newContext({ storageState: storageState("reviewer") });
  for (let round = 1; round <= 15 && rounds.length < 2; round++) {
    const res = await ctx.request.get(`/api/v1/tasks?run=demo&status=rejected&review=unreviewed&round=${round}&limit=50`);
    const list = (await res.json()) as TaskListJson;
    if (list.total >= 3 && list.total < 50) rounds.push({ round, count: list.total });
  }
  expect(rounds.length).toBe(2);
  await ctx.close();
});

function pick(i: number) {
  const r = rounds[i];
  if (!r) throw new Error(`no round ${i}`);
  return r;
}

const dialog = (page: Page) => page.getByRole("dialog", { name: "Bulk decision" });

test("bulk-reject a filtered set: the dialog's count is the table's, a double click applies once", async ({ page }) => {
  page.on("dialog", () => {
    throw new Error("a browser dialog opened");
  });
  const { round, count } = pick(0);
  const filter = `run=demo&status=rejected&review=unreviewed&round=${round}`;
  await page.goto(`/tasks?${filter}`);
  const total = await tableTotal(page);
  expect(total).toBe(count);

  // Keyboard only: focus the button and press Enter.
  await page.getByRole("button", { name: "Bulk…" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog(page).getByTestId("bulk-count")).toHaveText(String(total));
  await expect(dialog(page)).toContainText(`${total} tasks match this filter`);
  await dialog(page).getByLabel("Reason").selectOption("duplicate");
  await dialog(page).getByLabel("Note (optional)").fill("same task as its sibling");
  const confirm = dialog(page).getByRole("button", { name: `Reject ${total} tasks` });
  await expect(confirm).toBeEnabled();
  await shot(page, "bulk-dialog");

  const posts: number[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/v1/tasks/bulk") && r.request().method() === "POST" && !(r.request().postData() ?? "").includes("dry_run")) posts.push(r.status());
  });
  await confirm.dblclick();
  await expect(page.getByRole("status").filter({ hasText: "now rejected" })).toContainText(`${total} tasks now rejected (duplicate)`);
  await expect(dialog(page)).toHaveCount(0);
  expect(posts.filter((s) => s === 201)).toHaveLength(1);
  await shot(page, "bulk-toast", { both: false });

  // The table follows: the unreviewed filter is empty now, the rejected one has exactly them.
  await expect(page.getByText("No tasks match these filters.")).toBeVisible();
  await page.goto(`/tasks?run=demo&status=rejected&review=rejected&round=${round}`);
  expect(await tableTotal(page)).toBe(total);
  const list = (await (await page.request.get(`/api/v1/tasks?run=demo&status=rejected&review=rejected&round=${round}`)).json()) as TaskListJson;
  const first = list.items[0];
  if (!first) throw new Error("no rejected task");
  const history = (await (await page.request.get(`/api/v1/tasks/${first.id}/reviews`)).json()) as { items: ReviewJson[] };
  expect(history.items.map((r) => [r.decision, r.reason, r.note])).toEqual([["reject", "duplicate", "same task as its sibling"]]);
});

test("a set that changed after the dialog opened is counted again before anything is written", async ({ page }) => {
  const { round, count } = pick(1);
  const filter = `run=demo&status=rejected&review=unreviewed&round=${round}`;
  await page.goto(`/tasks?${filter}`);
  expect(await tableTotal(page)).toBe(count);
  await page.getByRole("button", { name: "Bulk…" }).click();
  await expect(dialog(page).getByTestId("bulk-count")).toHaveText(String(count));
  await dialog(page).getByLabel("Decision").selectOption("skip");

  // Another reviewer decides one of them meanwhile.
  const list = (await (await page.request.get(`/api/v1/tasks?${filter}&limit=1`)).json()) as TaskListJson;
  const task = list.items[0];
  if (!task) throw new Error("no task");
  const detail = (await (await page.request.get(`/api/v1/tasks/${task.id}`)).json()) as { version: number };
  const origin = new URL(page.url()).origin;
  const decided = await page.request.post(`/api/v1/tasks/${task.id}/reviews`, { data: { decision: "accept", base_version: detail.version }, headers: { origin } });
  expect(decided.status()).toBe(201);

  await dialog(page).getByRole("button", { name: `Skip ${count} tasks` }).click();
  await expect(dialog(page).getByRole("alert")).toContainText(`matches ${count - 1} now`);
  await expect(dialog(page).getByTestId("bulk-count")).toHaveText(String(count - 1));
  await dialog(page).getByRole("button", { name: `Skip ${count - 1} tasks` }).click();
  await expect(page.getByRole("status").filter({ hasText: "now skipped" })).toContainText(`${count - 1} tasks now skipped`);
  await page.goto(`/tasks?run=demo&status=rejected&review=skipped&round=${round}`);
  expect(await tableTotal(page)).toBe(count - 1);
});

test("save a view: it is listed with its count and opens its filter from another page", async ({ page }) => {
  const { round } = pick(0);
  await page.goto(`/tasks?run=demo&status=rejected&review=rejected&round=${round}&cursor=`);
  const total = await tableTotal(page);
  const name = `Duplicates of round ${round}`;
  await page.getByRole("button", { name: /^Views/ }).click();
  const menu = page.getByRole("region", { name: "Saved views" });
  await menu.getByLabel("Save the current filter as").fill(name);
  await menu.getByLabel("Save the current filter as").press("Enter");
  const link = menu.getByRole("link", { name: new RegExp(name) });
  await expect(link).toBeVisible();
  await expect(link).toContainText(String(total));
  await expect(link).toHaveAttribute("aria-current", "page");
  await shot(page, "views-menu");

  await page.goto("/rounds?run=demo");
  await page.goto("/tasks?run=demo");
  await page.getByRole("button", { name: /^Views/ }).click();
  await page.getByRole("region", { name: "Saved views" }).getByRole("link", { name: new RegExp(name) }).click();
  await expect(page).toHaveURL(new RegExp(`review=rejected.*round=${round}`));
  expect(await tableTotal(page)).toBe(total);
  // Its URL is the view: shared by copying the address bar.
  await page.goto(page.url());
  expect(await tableTotal(page)).toBe(total);
  // The short link of the view leads to the same URL.
  const views = (await (await page.request.get("/api/v1/views")).json()) as { items: SavedViewJson[] };
  const saved = views.items.find((v) => v.name === name);
  if (!saved) throw new Error("view not listed");
  expect(saved.count).toBe(total);
  await page.goto(`/tasks?view=${saved.id}`);
  await expect(page).toHaveURL(`/tasks?${saved.query}`);
  expect(await tableTotal(page)).toBe(total);
});
