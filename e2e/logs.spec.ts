// The log viewer (issue 5): a 50 MB coloured log opens at once, End reaches its last line, the
// viewer's own search steps through matches, #L1234 opens on that line, a 10 MB line shows as
// cut, and hostile bytes (NUL, an OSC 8 javascript: link) stay inert text.
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./shots";
import { BIG_LINES, CHECKPOINT_EVERY, FAILURE_LINE, LONG_LINE_CHARS, logUrl, uploadLogRun } from "./log-run";

const RUN = "logs-e2e-1";
const BIG = "verifier/test-stdout.txt";
let trialId = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(600_000);
  trialId = await uploadLogRun(request, baseURL ?? "", RUN);
});

/** Fails the test on any dialog; collects requests that leave the app's origin and CSP violations. */
async function guard(page: Page, baseURL: string): Promise<string[]> {
  const foreign: string[] = [];
  const origin = new URL(baseURL).origin;
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) foreign.push(`CSP: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on("dialog", (d) => {
    throw new Error(`a browser dialog opened: ${d.message()}`);
  });
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== origin) foreign.push(r.url());
  });
  return foreign;
}

const row = (page: Page, line: number) => page.locator(`[data-line="${line}"]`);

test("a 50 MB log: first lines at once, End, search and step, first error", async ({ page, baseURL }) => {
  const foreign = await guard(page, baseURL ?? "");
  await page.goto(logUrl(trialId, BIG));
  await expect(page.getByRole("heading", { name: BIG })).toBeVisible();
  await expect(row(page, 1)).toContainText("step 1/700000");
  await expect(page.getByRole("link", { name: "log-task" })).toHaveAttribute("href", /\/tasks\/\d+$/);
  await expect(page.getByText(`${BIG_LINES.toLocaleString("en-US")} lines`)).toBeVisible();
  // Colours come from the palette as classes, never as a style copied from the log.
  await expect(row(page, 1).locator(".ansi-fg-2").first()).toHaveText("INFO");

  await page.keyboard.press("End");
  await expect(row(page, BIG_LINES)).toBeInViewport();
  await expect(row(page, BIG_LINES)).toContainText("end of log after 700000 lines");
  await page.keyboard.press("Home");
  await expect(row(page, 1)).toBeInViewport();

  const search = page.getByRole("searchbox", { name: "Search in log" });
  await search.fill("checkpoint reached");
  // Every CHECKPOINT_EVERY-th line but the last, which says "end of log".
  const count = Math.floor((BIG_LINES - 1) / CHECKPOINT_EVERY);
  await expect(page.getByRole("status").filter({ hasText: ` of ${count}` })).toHaveText(`1 of ${count}`);
  await expect(row(page, CHECKPOINT_EVERY).locator("mark.log-match-current")).toHaveText("checkpoint reached");
  await search.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: ` of ${count}` })).toHaveText(`2 of ${count}`);
  await expect(row(page, 2 * CHECKPOINT_EVERY)).toBeInViewport();
  await expect(row(page, 2 * CHECKPOINT_EVERY).locator("mark.log-match-current")).toBeVisible();
  await search.press("Shift+Enter");
  await expect(page.getByRole("status").filter({ hasText: ` of ${count}` })).toHaveText(`1 of ${count}`);
  await expect(row(page, CHECKPOINT_EVERY + 10)).toContainText(`step ${CHECKPOINT_EVERY + 10}/`);
  await shot(page, "log-viewer-search");

  await page.getByRole("button", { name: "First error" }).click();
  await expect(row(page, FAILURE_LINE)).toBeInViewport();
  await expect(row(page, FAILURE_LINE).locator("mark.log-match-current").first()).toHaveText("FAILED");

  // A line number selects its line and puts it in the address.
  await row(page, FAILURE_LINE).getByRole("link", { name: `Line ${FAILURE_LINE}` }).click();
  await expect(page).toHaveURL(new RegExp(`#L${FAILURE_LINE}$`));
  await expect(row(page, FAILURE_LINE)).toHaveAttribute("aria-current", "location");
  expect(foreign).toEqual([]);
});

test("#L1234 opens on that line, selected; g goes to another", async ({ page, baseURL }) => {
  const foreign = await guard(page, baseURL ?? "");
  await page.goto(`${logUrl(trialId, BIG)}#L1234`);
  await expect(row(page, 1234)).toBeInViewport();
  await expect(row(page, 1234)).toHaveAttribute("aria-current", "location");
  await expect(row(page, 1234)).toContainText("step 1234/700000");

  await page.keyboard.press("g");
  const field = page.getByRole("textbox", { name: "Go to line" });
  await expect(field).toBeFocused();
  await field.fill("654321");
  await field.press("Enter");
  await expect(row(page, 654_321)).toBeInViewport();
  await expect(page).toHaveURL(/#L654321$/);
  expect(foreign).toEqual([]);
});

test("a 10 MB single line is cut with a marker; hostile bytes stay text", async ({ page, baseURL }) => {
  const foreign = await guard(page, baseURL ?? "");
  await page.goto(logUrl(trialId, "agent/oracle.txt"));
  await expect(row(page, 1)).toContainText(`line cut at 20,000 of ${LONG_LINE_CHARS.toLocaleString("en-US")} characters`);
  await expect(row(page, 1).getByRole("link", { name: "raw log" })).toHaveAttribute("href", /download=1$/);

  await page.getByRole("navigation", { name: "Logs of this trial" }).getByRole("link", { name: /test-stderr/ }).click();
  await expect(page).toHaveURL(/test-stderr\.txt$/);
  await expect(row(page, 2).getByRole("img", { name: /NUL/ })).toBeVisible();
  await expect(row(page, 4)).toHaveText(/^4external link$/);
  await expect(row(page, 5)).toHaveText(/^5after$/);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  await expect(page.locator('a[href*="evil.example"]')).toHaveCount(0);
  await row(page, 3).click();
  await row(page, 4).getByText("external").click();
  await shot(page, "log-viewer-hostile");
  expect(foreign).toEqual([]);
});

test("an OSC 8 link ended by BEL keeps its label as text", async ({ page }) => {
  // The BEL that ends the OSC belongs to the sequence: the label and the rest of the line stay.
  await page.goto(logUrl(trialId, "verifier/test-stderr.txt"));
  await expect(row(page, 3)).toHaveText(/^3see click me now$/, { timeout: 5_000 });
});
