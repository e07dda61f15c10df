// The first start: the demo run is there, the table filters, sorts and searches, a task page
// shows its files. The web server (playwright.config.ts) seeds the demo run on a fresh database.
import { expect, test, type Page } from "@playwright/test";

const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

function numbersInColumn(page: Page, column: number) {
  return page.locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
}

/** The table keeps the previous rows while the next ones load; wait until it has settled. */
async function settled(page: Page) {
  await expect(page.locator("table[aria-busy='true']")).toHaveCount(0);
}

test.beforeEach(async ({ page }) => {
  page.on("dialog", () => {
    throw new Error("a dialog opened");
  });
});

test("overview shows the demo run with its rounds", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /demo/ }).first()).toBeVisible();
  await expect(page.getByText("15").first()).toBeVisible();
  // The last ingest in words, not the importer's JSON keys; its checks open the run's flags.
  const lastIngest = page.getByRole("region", { name: /^demo/ }).first().getByRole("region", { name: "Last ingest" });
  await expect(lastIngest.getByText(/^[\d,]+: [\d,]+ new · [\d,]+ changed · [\d,]+ unchanged$/)).toBeVisible();
  await expect(lastIngest).not.toContainText("importId");
  await shot(page, "overview");
  await lastIngest.getByRole("link", { name: /flags? from [\d,]+ rules?$/ }).click();
  await expect(page).toHaveURL(/\/flags\?run=demo/);
  // Every round of the run's flags fits on the page: the last round's column is not clipped.
  const byRound = page.getByRole("region", { name: "Open per rule × round" });
  await expect(byRound.getByRole("columnheader")).not.toHaveCount(0);
  await expect(byRound.getByRole("columnheader").last()).toBeInViewport();
});

test("task table filters, sorts, searches and keeps the view in the URL", async ({ page }) => {
  await page.goto("/tasks?run=demo");
  const rows = page.locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBe(50);

  await page.getByLabel("Status").selectOption("rejected");
  await expect(page).toHaveURL(/status=rejected/);
  await settled(page);
  // The pipeline's status (column 3); other specs may have rejected some tasks in review too.
  await expect(rows.first().locator("td:nth-child(3)").getByText("rejected")).toBeVisible();
  const statuses = await page.locator("tbody tr td:nth-child(3)").allInnerTexts();
  expect(statuses.every((s) => s.includes("rejected"))).toBe(true);

  await page.getByRole("button", { name: "Lines" }).click();
  await expect(page).toHaveURL(/sort=-?solution_lines/);
  await settled(page);
  await expect(page.getByRole("columnheader", { name: "Lines" })).toHaveAttribute("aria-sort", /ascending|descending/);
  const sortDir = (await page.getByRole("columnheader", { name: "Lines" }).getAttribute("aria-sort")) ?? "";
  const lines = (await numbersInColumn(page, 7)).map((s) => Number(s.replace(/[^\d]/g, "")));
  const sorted = [...lines].sort((a, b) => (sortDir === "ascending" ? a - b : b - a));
  expect(lines).toEqual(sorted);
  await shot(page, "tasks-filtered-sorted");

  // The URL alone restores the view.
  const url = page.url();
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.getByLabel("Status")).toHaveValue("rejected");

  await page.goto("/tasks?run=demo");
  const search = page.getByPlaceholder("Search instructions, solutions, verifiers…");
  await search.fill("sqlite3");
  await search.press("Enter");
  await expect(page).toHaveURL(/q=sqlite3/);
  await settled(page);
  await expect(rows.first()).toBeVisible();
  await expect(page.getByText("Matching “sqlite3”", { exact: true })).toBeVisible();
  // Under each result, the line where it matched, the word marked; it opens the file at that line.
  const snippet = page.locator("tr[data-snippet-of]").first();
  await expect(snippet.locator("mark").first()).toHaveText(/^sqlite3$/i);
  const href = (await snippet.getByRole("link").getAttribute("href")) ?? "";
  expect(href).toMatch(/^\/tasks\/\d+\?file=[^#]+#L\d+$/);
  // The pointer on the snippet's line lights up its row too.
  const owner = snippet.locator("xpath=preceding-sibling::tr[1]");
  const background = () => owner.evaluate((el) => getComputedStyle(el).backgroundColor);
  const still = await background();
  await snippet.hover();
  await expect.poll(background).not.toBe(still);
  await shot(page, "tasks-search");
  await snippet.getByRole("link").click();
  await expect(page).toHaveURL(href);
  const line = href.split("#")[1] ?? "";
  await expect(page.locator(`[id="${line}"]`)).toContainText(/sqlite3/i);

  // A phrase keeps its own quotes in the heading, none added around them.
  await page.goto(`/tasks?run=demo&q=${encodeURIComponent('"set -euo pipefail"')}`);
  await expect(page.getByText('Matching "set -euo pipefail"', { exact: true })).toBeVisible();
});

test("a task page shows instruction, metrics, lineage links and highlighted files", async ({ page }) => {
  await page.goto("/tasks?run=demo&round=5&status=accepted");
  const first = page.locator("tbody tr").first().getByRole("link").first();
  const taskId = (await first.innerText()).trim();
  await first.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(taskId);
  await expect(page.getByText("Solution lines").first()).toBeVisible();
  const lineage = page.getByRole("region", { name: "Lineage" });
  // A round-5 task: its seed and four ancestors above it in the tree, then itself.
  await expect(lineage.getByRole("tree")).toBeVisible();
  expect(await lineage.getByRole("treeitem").count()).toBeGreaterThanOrEqual(6);
  await expect(lineage.getByRole("link", { name: "Diff vs parent" })).toBeVisible();

  await page.getByRole("navigation", { name: "Files" }).getByRole("link", { name: /solve\.sh/ }).click();
  await expect(page).toHaveURL(/file=solution%2Fsolve\.sh|file=solution\/solve\.sh/);
  await expect(page.getByText("set -euo pipefail").or(page.getByText("#!/bin/bash")).first()).toBeVisible();
  await shot(page, "task-page");

  const raw = await page.request.get(page.url().replace(/\/tasks\/(\d+).*/, "/api/v1/tasks/$1/files/solution/solve.sh"));
  expect(raw.status()).toBe(200);
  expect(raw.headers()["content-disposition"]).toContain("attachment");
});

test("the JSON API answers with the documented shapes and errors", async ({ request }) => {
  const runs = await (await request.get("/api/v1/runs")).json();
  // Other specs import runs of their own: find the demo run by name.
  expect(runs.items.find((r: { name: string }) => r.name === "demo")).toMatchObject({ name: "demo", rounds: 15 });
  const list = await (await request.get("/api/v1/tasks?run=demo&round=10&limit=3")).json();
  expect(list.items).toHaveLength(3);
  expect(list.items[0]).toHaveProperty("solution_lines");
  const bad = await request.get("/api/v1/tasks?round=abc");
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.code).toBe("bad_request");
  expect((await request.get("/api/v1/tasks/999999999")).status()).toBe(404);
  const ids = list.items.map((t: { id: number }) => t.id).join(",");
  const snippets = await (await request.get(`/api/v1/tasks/snippets?q=mkdir&ids=${ids}`)).json();
  expect(snippets.items[0]).toMatchObject({ path: expect.any(String), line: expect.any(Number), marks: expect.arrayContaining([[expect.any(Number), expect.any(Number)]]) });
  const badIds = await request.get("/api/v1/tasks/snippets?q=mkdir&ids=1,x");
  expect(badIds.status()).toBe(400);
  expect((await badIds.json()).error.details[0].field).toBe("ids");
  const rounds = await (await request.get("/api/v1/runs/demo/rounds")).json();
  expect(rounds.rounds).toHaveLength(16);
});
