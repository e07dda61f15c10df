// Review decisions on the task page (issue 7, part A): a decision by keyboard alone, a rejection
// with a reason and a note, two reviewers on one task (the stale page is told the newer state),
// a note draft surviving a reload, and a viewer who sees the history but cannot decide.
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./shots";
import type { ReviewJson, TaskDetailJson, TaskListJson } from "@/lib/api/types";
import { credentials, storageState } from "./auth";

test.describe.configure({ mode: "serial" });
test.use({ storageState: storageState("reviewer") });

/** Unreviewed demo tasks, one per test, picked through the API (independent of the seed). */
let pool: number[] = [];

test.beforeAll(async ({ browser }) => {
  const ctx = await browser.newContext({ storageState: storageState("reviewer") });
  const res = await ctx.request.get("/api/v1/tasks?run=demo&review=unreviewed&status=accepted&limit=20");
  expect(res.status()).toBe(200);
  pool = ((await res.json()) as TaskListJson).items.map((t) => t.id);
  expect(pool.length).toBeGreaterThanOrEqual(6);
  await ctx.close();
});

function taskFor(index: number): number {
  const id = pool[index];
  if (id === undefined) throw new Error(`no task ${index} in the pool`);
  return id;
}

const header = (page: Page) => page.locator("header").filter({ has: page.getByRole("heading", { level: 1 }) });
/** The header's review badge (the pipeline status badge beside it may say "accepted" too). */
const reviewBadge = (page: Page) => header(page).getByTitle(/^Review: /);
const history = (page: Page) => page.getByRole("region", { name: "Review history" });
const decision = (page: Page) => page.getByRole("region", { name: "Decision" });

async function openTask(page: Page, id: number) {
  await page.goto(`/tasks/${id}`);
  await expect(decision(page).getByRole("button", { name: "Accept" })).toBeEnabled();
  await expect(history(page)).toContainText("No decisions yet");
}

test("a reviewer accepts with the keyboard only; keys typed into the note do not decide", async ({ page }) => {
  const id = taskFor(0);
  await openTask(page, id);
  await expect(reviewBadge(page)).toHaveText("unreviewed");

  // `g a` goes to the Validation page: its second key must not accept the task on the way out.
  await page.keyboard.press("g");
  await page.keyboard.press("a");
  await expect(page).toHaveURL(/\/validation/);
  await page.goBack();
  await expect(decision(page).getByRole("button", { name: "Accept" })).toBeEnabled();
  await expect(reviewBadge(page)).toHaveText("unreviewed");
  await expect(history(page)).toContainText("No decisions yet");
  expect(((await (await page.request.get(`/api/v1/tasks/${id}`)).json()) as TaskDetailJson).review).toBe("unreviewed");

  const note = page.getByLabel(/^Note/);
  await note.focus();
  await page.keyboard.type("a solid task, reads well");
  await expect(note).toHaveValue("a solid task, reads well");
  await expect(history(page)).toContainText("No decisions yet");
  await expect(reviewBadge(page)).toHaveText("unreviewed");

  // Leave the field with the keyboard, then decide.
  await page.keyboard.press("Tab");
  await expect(note).not.toBeFocused();
  const posted = page.waitForResponse((r) => r.url().endsWith(`/api/v1/tasks/${id}/reviews`) && r.request().method() === "POST");
  await page.keyboard.press("a");
  expect((await posted).status()).toBe(201);

  await expect(reviewBadge(page)).toHaveText("accepted");
  await expect(history(page).getByRole("listitem")).toHaveCount(1);
  await expect(history(page)).toContainText(credentials("reviewer").email);
  await expect(history(page)).toContainText("a solid task, reads well");
  await expect(note).toHaveValue("");
  const task = (await (await page.request.get(`/api/v1/tasks/${id}`)).json()) as TaskDetailJson;
  expect(task.review).toBe("accepted");
});

test("a rejection needs a reason; with a reason and a note it is recorded and shown", async ({ page }) => {
  const id = taskFor(1);
  await openTask(page, id);
  await decision(page).getByRole("button", { name: "Reject…" }).click();
  const reason = page.getByLabel("Reason");
  await expect(reason).toBeFocused();
  await expect(page.getByRole("button", { name: "Reject with this reason" })).toBeDisabled();
  await reason.selectOption("verifier too weak");
  await page.getByLabel(/^Note/).fill("tests only check that the file exists");
  await page.getByRole("button", { name: "Reject with this reason" }).click();

  await expect(reviewBadge(page)).toHaveText("rejected");
  const entry = history(page).getByRole("listitem").first();
  await expect(entry).toContainText("reject");
  await expect(entry).toContainText("verifier too weak");
  await expect(entry).toContainText("tests only check that the file exists");
  await expect(page.getByRole("form", { name: "Reject" })).toHaveCount(0);
  await shot(page, "review-task-page", { fullPage: true });
});

test("two reviewers on one task: the one on the stale page is told the newer state, then decides on it", async ({ page, browser }) => {
  const id = taskFor(2);
  const other = await browser.newContext({ storageState: storageState("admin") });
  const admin = await other.newPage();
  try {
    await openTask(page, id);
    await openTask(admin, id);

    await page.keyboard.press("a");
    await expect(reviewBadge(page)).toHaveText("accepted");

    // The admin's page still shows the old version; their decision must not overwrite.
    await decision(admin).getByRole("button", { name: "Needs changes" }).click();
    const alert = decision(admin).getByRole("alert");
    await expect(alert).toContainText("changed while you were looking");
    await expect(alert).toContainText("accepted");
    await expect(alert).toContainText(credentials("reviewer").email);
    await expect(reviewBadge(admin)).toHaveText("unreviewed");
    await shot(admin, "review-conflict", { fullPage: true });

    await alert.getByRole("button", { name: "Load the newer state" }).click();
    await expect(alert).toHaveCount(0);
    await expect(reviewBadge(admin)).toHaveText("accepted");
    await expect(history(admin).getByRole("listitem")).toHaveCount(1);

    await decision(admin).getByRole("button", { name: "Needs changes" }).click();
    await expect(reviewBadge(admin)).toHaveText("needs-changes");
    const { items } = (await (await page.request.get(`/api/v1/tasks/${id}/reviews`)).json()) as { items: ReviewJson[] };
    expect(items.map((r) => [r.decision, r.by])).toEqual([
      ["needs-changes", credentials("admin").email],
      ["accept", credentials("reviewer").email],
    ]);
  } finally {
    await other.close();
  }
});

test("a double click sends one decision, however fast the first one is saved", async ({ page }) => {
  const id = taskFor(3);
  await openTask(page, id);
  let posts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith(`/api/v1/tasks/${id}/reviews`)) posts++;
  });
  const skip = decision(page).getByRole("button", { name: "Skip" });
  const box = await skip.boundingBox();
  if (!box) throw new Error("the Skip button has no box");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
  await expect(reviewBadge(page)).toHaveText("skipped");
  await expect(history(page).getByRole("listitem")).toHaveCount(1);
  // The double click's second click, arriving only after the first decision was saved.
  await page.mouse.down({ clickCount: 2 });
  await page.mouse.up({ clickCount: 2 });
  await decision(page).getByRole("button", { name: "Needs changes" }).click();
  await expect(reviewBadge(page)).toHaveText("needs-changes");
  await expect(history(page).getByRole("listitem")).toHaveCount(2);
  expect(posts).toBe(2);
});

test("a note being typed survives a reload, and is gone once the decision is saved", async ({ page }) => {
  const id = taskFor(4);
  await openTask(page, id);
  const note = page.getByLabel(/^Note/);
  await note.fill("half a thought about the verifier");
  await page.reload();
  await expect(note).toHaveValue("half a thought about the verifier");
  await note.blur();
  await page.keyboard.press("n");
  await expect(reviewBadge(page)).toHaveText("needs-changes");
  await expect(history(page)).toContainText("half a thought about the verifier");
  await expect(note).toHaveValue("");
  await page.reload();
  await expect(decision(page).getByRole("button", { name: "Accept" })).toBeEnabled();
  await expect(note).toHaveValue("");
});

test.describe("as a viewer", () => {
  test.use({ storageState: storageState("viewer") });

  test("the history is shown, the decision bar is not, and the API refuses a decision", async ({ page, baseURL }) => {
    const id = taskFor(1);
    await page.goto(`/tasks/${id}`);
    await expect(history(page)).toContainText("verifier too weak");
    await expect(page.getByRole("region", { name: "Decision" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Accept" })).toHaveCount(0);
    const task = (await (await page.request.get(`/api/v1/tasks/${id}`)).json()) as TaskDetailJson;
    const res = await page.request.post(`/api/v1/tasks/${id}/reviews`, { data: { decision: "accept", base_version: task.version }, headers: { origin: baseURL ?? "" } });
    expect(res.status()).toBe(403);
  });
});
