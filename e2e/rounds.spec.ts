// The Rounds page: charts of the demo run, a metric and a slice switched through the controls
// (and kept in the URL), a round-10 bar opening exactly its tasks, and both themes. Then a second
// run uploaded by the spec: two runs compared, a baseline saved by a reviewer and compared
// against, an admin deleting one, and rejection-reason and seed-family segments clicked through.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, request as playwrightRequest, test, type Locator, type Page } from "@playwright/test";
import type { BaselineSummaryJson } from "@/lib/api/types";
import { uploadRunDirectory } from "./upload";
import { storageState } from "./auth";

const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });

async function setTheme(page: Page, theme: "light" | "dark") {
  const url = new URL(page.url() === "about:blank" ? "http://127.0.0.1" : page.url());
  await page.context().addCookies([{ name: "rst-theme", value: theme, domain: url.hostname, path: "/" }]);
}

test("rounds: switch metric and slice, click a round-10 bar, land on the matching tasks", async ({ page }) => {
  await page.goto("/rounds?run=demo");
  await expect(page.getByRole("heading", { name: "Candidates per round" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Solution lines per round" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Solver: / })).toBeVisible();
  // Charts draw after hydration (they measure their container): the controls are live by then.
  await expect(page.locator(".recharts-surface").first()).toBeVisible();

  await page.getByRole("radio", { name: "Executed commands" }).click();
  await expect(page).toHaveURL(/metric=commands/);
  await expect(page.getByRole("heading", { name: "Executed commands per round" })).toBeVisible();
  // A controlled checkbox: it shows the new state once the URL has changed, so click, then assert.
  await page.getByLabel("Log scale").click();
  await expect(page).toHaveURL(/log=1/);
  await expect(page.getByLabel("Log scale")).toBeChecked();
  await expect(page.getByText(/log scale/)).toBeVisible();

  // The first category whose round 10 has accepted tasks (a small demo run may lack some).
  const category = page.getByLabel("Category");
  const options = (await category.locator("option").evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).filter((v) => v);
  const bar = page.getByRole("link", { name: /^Round 10: [\d,]+ accepted — open these tasks$/ });
  let value: string | undefined;
  for (const option of options) {
    await category.selectOption(option);
    await expect(page).toHaveURL(new RegExp(`category=${encodeURIComponent(option)}`));
    await expect(page.getByTestId("rounds-summary")).toContainText(`category ${option}`);
    await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
    if ((await bar.count()) === 1) {
      value = option;
      break;
    }
  }
  expect(value).toBeTruthy();

  // The URL alone restores the view.
  const url = page.url();
  await page.goto("about:blank");
  await page.goto(url);
  await expect(page.locator(".recharts-surface").first()).toBeVisible();
  await expect(page.getByRole("radio", { name: "Executed commands" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByLabel("Category")).toHaveValue(value ?? "");

  await expect(bar).toHaveCount(1);
  const name = (await bar.getAttribute("aria-label")) ?? "";
  const count = Number(/Round 10: ([\d,]+) accepted/.exec(name)?.[1]?.replace(/,/g, ""));
  expect(count).toBeGreaterThan(0);
  // Hover shows the exact numbers with n.
  await bar.hover();
  await expect(page.locator(".recharts-tooltip-wrapper").getByText("Round 10")).toBeVisible();
  await expect(page.locator(".recharts-tooltip-wrapper").getByText(/yield/)).toBeVisible();
  await shot(page, "rounds-sliced-tooltip");

  // Each chart exports CSV and PNG.
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export Candidates per round as CSV" }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^demo_.*counts\.csv$/);
  const csvText = fs.readFileSync((await csv.path()) ?? "", "utf8");
  expect(csvText.split("\r\n")[0]).toMatch(/^round,candidates,accepted,rejected/);
  expect(csvText).toContain(`\r\n10,`);
  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export Candidates per round as PNG" }).click()]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);
  const bytes = fs.readFileSync((await png.path()) ?? "");
  expect(bytes.subarray(1, 4).toString()).toBe("PNG");
  expect(bytes.length).toBeGreaterThan(5000);

  await bar.click();
  await expect(page).toHaveURL(/\/tasks\?/);
  const target = new URL(page.url());
  expect(Object.fromEntries(target.searchParams)).toMatchObject({ run: "demo", round: "10", status: "accepted", category: value });
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.locator("table[aria-busy='true']")).toHaveCount(0);
  const total = await page.locator("p[aria-live='polite'] span.font-mono").last().innerText();
  expect(Number(total.replace(/,/g, ""))).toBe(count);
});

test("rounds: the API returns what the page shows, and rejects a bad slice", async ({ page }) => {
  const res = await page.request.get("/api/v1/runs/demo/rounds?review=unreviewed");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { rounds: { round: number; candidates: number; yield: number; metrics: Record<string, { p50: number }> }[] };
  expect(body.rounds.length).toBeGreaterThan(10);
  expect(body.rounds[0]?.metrics.solution_lines?.p50).toBeGreaterThan(0);
  const bad = await page.request.get("/api/v1/runs/demo/rounds?review=maybe");
  expect(bad.status()).toBe(400);
});

for (const theme of ["light", "dark"] as const) {
  test(`rounds page in the ${theme} theme`, async ({ page }) => {
    await page.goto("/rounds?run=demo");
    await setTheme(page, theme);
    await page.goto("/rounds?run=demo&band=p10-p90");
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expect(page.getByRole("heading", { name: "Operator mix per round" })).toBeVisible();
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
    await shot(page, `rounds-${theme}`);
    await page.goto("/?run=demo");
    await expect(page.getByText("Curves by round")).toBeVisible();
    await shot(page, `overview-curves-${theme}`);
  });
}

const OTHER_RUN = "rounds-b";

/** The task table's total, once the rows of the new filter are in. */
async function tableTotal(page: Page): Promise<number> {
  await expect(page.locator("tbody tr").first()).toBeVisible();
  await expect(page.locator("table[aria-busy='true']")).toHaveCount(0);
  const total = await page.locator("p[aria-live='polite'] span.font-mono").last().innerText();
  return Number(total.replace(/,/g, ""));
}

/** The count in a bar segment's accessible name, e.g. "Round 10: 12 rejected (…) — open these tasks". */
async function countOf(segment: Locator, pattern: RegExp): Promise<number> {
  const name = (await segment.getAttribute("aria-label")) ?? "";
  return Number(pattern.exec(name)?.[1]?.replace(/,/g, ""));
}

test.describe("compare and click through", () => {
  // A second, smaller run, uploaded as a pipeline would; re-running the spec re-imports the same
  // bytes, which changes nothing.
  test.beforeAll(async ({}, testInfo) => {
    test.setTimeout(180_000);
    const baseURL = testInfo.project.use.baseURL ?? "";
    const { generateRun } = await import("../lib/generate");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-e2e-rounds-"));
    await generateRun({ out: path.join(dir, "run"), tasks: 80, seed: 2, name: OTHER_RUN });
    const admin = await playwrightRequest.newContext({ baseURL, storageState: storageState("admin") });
    try {
      await uploadRunDirectory(admin, path.join(dir, "run"), OTHER_RUN, { headers: { origin: baseURL }, timeout: 120_000 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await admin.dispose();
    }
  });

  test("two runs on the same axes: both series drawn", async ({ page }) => {
    await page.goto("/rounds?run=demo");
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
    await page.getByRole("button", { name: OTHER_RUN, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`compare=${OTHER_RUN}`));
    await expect(page.getByTestId("rounds-summary")).toContainText(`compared with ${OTHER_RUN}`);
    const legend = page.getByRole("list", { name: "Yield and validation pass rate legend" });
    await expect(legend.getByText("yield · demo", { exact: true })).toBeVisible();
    await expect(legend.getByText(`yield · ${OTHER_RUN}`, { exact: true })).toBeVisible();
    // Two runs × (yield, validation): four lines, each with points.
    const rates = page.locator("section[aria-labelledby='rates']");
    await expect(rates.locator(".recharts-line")).toHaveCount(4);
    await expect(page.locator("section[aria-labelledby='distribution'] .recharts-line")).toHaveCount(2);
  });

  test.describe("as a reviewer", () => {
    test.use({ storageState: storageState("reviewer") });

    test("save a baseline of one run, compare another run against it, in both themes", async ({ page }) => {
      const name = `before ${Date.now()}`;
      await page.goto(`/rounds?run=${OTHER_RUN}`);
      await expect(page.locator(".recharts-surface").first()).toBeVisible();
      await page.getByLabel("Baseline name").fill(name);
      await page.getByRole("button", { name: "Save as baseline" }).click();
      await expect(page.getByRole("status").filter({ hasText: `Saved “${name}”` })).toBeVisible();
      const compare = page.getByRole("button", { name: `Compare with baseline ${name}` });
      await expect(compare).toBeVisible();
      // Deleting is for admins: a reviewer is not offered it.
      await expect(page.getByRole("list", { name: "Saved baselines" }).getByRole("button", { name: "Delete" })).toHaveCount(0);

      await page.goto("/rounds?run=demo");
      await expect(page.locator(".recharts-surface").first()).toBeVisible();
      await compare.click();
      await expect(compare).toHaveAttribute("aria-pressed", "true");
      await expect(page).toHaveURL(/baseline=\d+/);
      await expect(page.getByTestId("rounds-summary")).toContainText(`compared with ${name} (baseline)`);
      const legend = page.getByRole("list", { name: "Yield and validation pass rate legend" });
      await expect(legend.getByText(`yield · ${name} (baseline)`, { exact: true })).toBeVisible();
      await expect(page.locator("section[aria-labelledby='rates'] .recharts-line")).toHaveCount(4);
      await expect(page.locator("section[aria-labelledby='solver'] .recharts-line")).toHaveCount(4);

      // The URL alone restores the comparison.
      const url = page.url();
      await page.goto("about:blank");
      await page.goto(url);
      await expect(page.getByRole("button", { name: `Compare with baseline ${name}` })).toHaveAttribute("aria-pressed", "true");
      await expect(page.locator("section[aria-labelledby='rates'] .recharts-line")).toHaveCount(4);
      for (const theme of ["light", "dark"] as const) {
        await setTheme(page, theme);
        await page.goto(url);
        await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
        await expect(page.locator("section[aria-labelledby='rates'] .recharts-line")).toHaveCount(4);
        await shot(page, `rounds-baseline-${theme}`);
      }
    });
  });

  test("an admin deletes a baseline: gone from the list and from the comparison", async ({ page, baseURL }) => {
    const name = `doomed ${Date.now()}`;
    const res = await page.request.post("/api/v1/baselines", { data: { name, run: "demo", slice: { review: "unreviewed" } }, headers: { origin: baseURL ?? "" } });
    expect(res.status(), await res.text()).toBe(201);
    const { id } = (await res.json()) as BaselineSummaryJson;
    await page.goto(`/rounds?run=${OTHER_RUN}&baseline=${id}`);
    const row = page.getByRole("list", { name: "Saved baselines" }).getByRole("listitem").filter({ hasText: name });
    await expect(row.getByRole("button", { name: `Compare with baseline ${name}` })).toHaveAttribute("aria-pressed", "true");
    // Saved for another slice than the page's: the page says so.
    await expect(page.getByText(`Baseline “${name}” holds demo · review unreviewed`)).toBeVisible();
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Delete" }).click();
    await expect(row).toHaveCount(0);
    await expect(page).not.toHaveURL(/baseline=/);
    await expect(page.getByText(`Baseline “${name}” holds`)).toHaveCount(0);
    expect((await page.request.get(`/api/v1/baselines/${id}`)).status()).toBe(404);
  });

  test("a rejection-reason segment opens exactly its tasks", async ({ page }) => {
    await page.goto("/rounds?run=demo");
    await expect(page.locator(".recharts-surface").first()).toBeVisible();
    const pattern = /^Round 10: ([\d,]+) rejected \((.+)\) — open these tasks$/;
    const segment = page.getByRole("link", { name: pattern }).first();
    await expect(segment).toBeVisible();
    const count = await countOf(segment, pattern);
    const reason = pattern.exec((await segment.getAttribute("aria-label")) ?? "")?.[2] ?? "";
    expect(count).toBeGreaterThan(0);
    await segment.click();
    await expect(page).toHaveURL(/\/tasks\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ run: "demo", round: "10", status: "rejected", reason });
    await expect(page.getByTestId("filter-chip-reason")).toHaveText(reason);
    expect(await tableTotal(page)).toBe(count);
    await shot(page, "tasks-from-reason-segment");
    // The chip removes its filter: the whole round's rejected tasks again.
    await page.getByRole("button", { name: "Remove the rejection reason filter" }).click();
    await expect(page).not.toHaveURL(/reason=/);
    await expect(page.getByTestId("filter-chip-reason")).toHaveCount(0);
  });

  test("a seed family's bar opens exactly the family's tasks", async ({ page }) => {
    await page.goto("/rounds?run=demo");
    const family = page.getByLabel("Seed family");
    // The largest family comes first in the menu.
    const first = (await family.locator("option").evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))).find((v) => v) ?? "";
    await family.selectOption(first);
    await expect(page).toHaveURL(new RegExp(`root=${first}`));
    await expect(page.getByTestId("rounds-summary")).toContainText("seed family");
    await expect(page.locator("[aria-busy='true']")).toHaveCount(0);
    const pattern = /^Round (\d+): ([\d,]+) accepted — open these tasks$/;
    const bars = page.getByRole("link", { name: pattern });
    await expect(bars.first()).toBeVisible();
    const bar = bars.last();
    const label = (await bar.getAttribute("aria-label")) ?? "";
    const [, round, n] = pattern.exec(label) ?? [];
    await bar.click();
    await expect(page).toHaveURL(/\/tasks\?/);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ run: "demo", root: first, round, status: "accepted" });
    await expect(page.getByTestId("filter-chip-root")).not.toHaveText(/^#/);
    expect(await tableTotal(page)).toBe(Number(n?.replace(/,/g, "")));
  });
});
