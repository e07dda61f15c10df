// The Rounds page: charts of the demo run, a metric and a slice switched through the controls
// (and kept in the URL), a round-10 bar opening exactly its tasks, and both themes.
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";

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
