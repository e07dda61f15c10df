// The review queue (issue 7, part B1): two reviewers in two browsers work one queue and are never
// handed the same task; a decision made on a stale page is refused with the newer state shown; ten
// tasks reviewed with the keyboard alone; a queue made from a task-table filter.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import type { QueueDetailJson, QueueJson, ReviewJson } from "@/lib/api/types";
import { credentials, storageState } from "./auth";
import { shot } from "./shots";

test.describe.configure({ mode: "serial" });
test.use({ storageState: storageState("reviewer") });

/** Creates a queue through the JSON API, as a script would (the admin's session, same origin). */
async function createQueue(ctx: BrowserContext, baseURL: string, name: string, filter: string): Promise<QueueJson> {
  const res = await ctx.request.post("/api/v1/queues", { data: { name, filter }, headers: { origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as QueueJson;
}

/** A task's decisions made since `at` (the demo data outlives a run of this spec). */
async function reviewsSince(ctx: BrowserContext, taskId: number, at: string): Promise<ReviewJson[]> {
  const items = ((await (await ctx.request.get(`/api/v1/tasks/${taskId}/reviews`)).json()) as { items: ReviewJson[] }).items;
  return items.filter((r) => r.at >= at);
}

/** The task on screen (its database id), once it is there. */
async function shownTask(page: Page): Promise<number> {
  const region = page.locator("[data-task-id]");
  await expect(region).toHaveCount(1);
  return Number(await region.getAttribute("data-task-id"));
}

async function nextShown(page: Page, previous: number): Promise<number> {
  await expect(page.locator("[data-task-id]")).not.toHaveAttribute("data-task-id", String(previous));
  return shownTask(page);
}

const decision = (page: Page) => page.getByRole("region", { name: "Decision" });

/** The server-rendered decision bar has been hydrated: its keys listen now. */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('section[aria-label="Decision"] button');
    return button !== null && Object.keys(button).some((k) => k.startsWith("__reactProps$"));
  });
}

test("two reviewers work one queue without ever getting the same task; a stale decision is refused", async ({ browser, baseURL }) => {
  const base = baseURL ?? "";
  const admin = await browser.newContext({ storageState: storageState("admin") });
  const reviewer = await browser.newContext({ storageState: storageState("reviewer") });
  const queue = await createQueue(admin, base, "two reviewers", "run=demo&round=10&status=accepted");
  expect(queue.total).toBeGreaterThanOrEqual(8);

  const a = await reviewer.newPage();
  const b = await admin.newPage();
  await a.goto(`/review/${queue.id}`);
  await b.goto(`/review/${queue.id}`);
  const seenA: number[] = [await shownTask(a)];
  const seenB: number[] = [await shownTask(b)];
  expect(seenA[0]).not.toBe(seenB[0]);

  // Both decide three tasks, interleaved: every task either of them is shown is theirs alone.
  for (let i = 0; i < 3; i++) {
    await expect(decision(a).getByRole("button", { name: "Accept" })).toBeEnabled();
    await a.keyboard.press("a");
    seenA.push(await nextShown(a, seenA.at(-1) ?? 0));
    await expect(decision(b).getByRole("button", { name: "Needs changes" })).toBeEnabled();
    await b.keyboard.press("n");
    seenB.push(await nextShown(b, seenB.at(-1) ?? 0));
  }
  const all = [...seenA, ...seenB];
  expect(new Set(all).size).toBe(all.length);

  // The first three of each were decided by the one who held them.
  for (const [who, ids, decisionName] of [
    ["reviewer", seenA.slice(0, 3), "accept"],
    ["admin", seenB.slice(0, 3), "needs-changes"],
  ] as const) {
    for (const id of ids) {
      const items = (await reviewsSince(admin, id, queue.created_at));
      expect(items.map((r) => r.decision)).toEqual([decisionName]);
      expect(items[0]?.by).toBe(credentials(who).email);
    }
  }
  const progress = ((await (await admin.request.get(`/api/v1/queues/${queue.id}`)).json()) as QueueDetailJson).progress;
  expect(progress.done).toBe(6);
  expect(progress.by_reviewer.map((r) => r.done)).toEqual([3, 3]);
  await expect(a.getByRole("region", { name: "Progress" })).toContainText(credentials("admin").email);

  // Stale page: while A looks at a task, it is decided on its task page in the other browser.
  const held = seenA.at(-1) ?? 0;
  const other = await admin.newPage();
  await other.goto(`/tasks/${held}`);
  await expect(decision(other).getByRole("button", { name: "Reject…" })).toBeEnabled();
  await hydrated(other);
  await decision(other).getByRole("button", { name: "Needs changes" }).click();
  await expect(decision(other).getByRole("status")).toContainText("Saved: needs-changes");

  await a.keyboard.press("a");
  const alert = decision(a).getByRole("alert");
  await expect(alert).toContainText("Not saved: this task changed");
  await expect(alert).toContainText("needs-changes");
  await expect(alert).toContainText(credentials("admin").email);
  const stored = await reviewsSince(admin, held, queue.created_at);
  expect(stored.map((r) => r.decision)).toEqual(["needs-changes"]);
  await shot(a, "queue-conflict", { both: false });

  // Moving on with `s` leaves the task to the queue (it is done anyway) and shows the next one.
  await a.keyboard.press("s");
  const after = await nextShown(a, held);
  expect(all).not.toContain(after);
  await admin.close();
  await reviewer.close();
});

test("ten tasks reviewed with the keyboard alone; k goes back to revise, ? lists the keys", async ({ page, browser, baseURL }) => {
  const admin = await browser.newContext({ storageState: storageState("admin") });
  const queue = await createQueue(admin, baseURL ?? "", "keyboard", "run=demo&round=9&status=accepted");
  expect(queue.total).toBeGreaterThanOrEqual(12);
  await page.goto(`/review/${queue.id}`);
  // From here on: no clicks, only keys.
  const decided: { id: number; decision: string }[] = [];
  let current = await shownTask(page);
  // From the first task on, each decision is one request that also brings what follows it.
  const requests: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/v1/queues/")) requests.push(`${r.method()} ${url.pathname.replace(/\/\d+/g, "/N")}`);
  });

  for (let i = 0; i < 10; i++) {
    await expect(decision(page).getByRole("button", { name: "Accept" })).toBeEnabled();
    const kind = i % 4;
    if (kind === 0) {
      await page.keyboard.press("a");
      decided.push({ id: current, decision: "accept" });
    } else if (kind === 1) {
      await page.keyboard.press("n");
      decided.push({ id: current, decision: "needs-changes" });
    } else if (kind === 2) {
      // r focuses the reason menu; typing picks a reason; Tab to the button, Enter records it.
      await page.keyboard.press("r");
      const reason = page.getByRole("combobox", { name: "Reason" });
      await expect(reason).toBeFocused();
      await page.keyboard.press("v");
      await expect(reason).toHaveValue(/^verifier too/);
      await page.keyboard.press("Tab");
      await expect(page.getByRole("button", { name: "Reject with this reason" })).toBeFocused();
      await page.keyboard.press("Enter");
      decided.push({ id: current, decision: "reject" });
    } else {
      // Tab through the screen to the Accept button, as someone without the letter keys would.
      await page.locator("[data-task-id]").focus();
      for (let t = 0; t < 40; t++) {
        await page.keyboard.press("Tab");
        if (await decision(page).getByRole("button", { name: "Accept" }).evaluate((el) => el === document.activeElement)) break;
      }
      await expect(decision(page).getByRole("button", { name: "Accept" })).toBeFocused();
      await page.keyboard.press("Enter");
      decided.push({ id: current, decision: "accept" });
    }
    current = await nextShown(page, current);
  }
  expect(new Set(decided.map((d) => d.id)).size).toBe(10);
  const calls = requests.filter((r) => r !== "GET /api/v1/queues/N"); // the progress panel's own refresh
  expect(calls).toEqual(Array(10).fill("POST /api/v1/queues/N/decisions"));

  // k goes back to the last decided task; deciding again revises it, then j returns to the held one.
  await page.keyboard.press("k");
  const last = decided.at(-1);
  await expect(page.locator("[data-task-id]")).toHaveAttribute("data-task-id", String(last?.id));
  await expect(page.getByText("Decided earlier")).toBeVisible();
  await page.keyboard.press("k");
  const beforeLast = decided.at(-2);
  await expect(page.locator("[data-task-id]")).toHaveAttribute("data-task-id", String(beforeLast?.id));
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await expect(page.locator("[data-task-id]")).toHaveAttribute("data-task-id", String(current));

  // Typing in the note never decides.
  await page.keyboard.press("Tab");
  const note = page.getByLabel(/^Note/);
  await note.focus();
  await page.keyboard.type("ask about the verifier");
  await expect(note).toHaveValue("ask about the verifier");
  await expect(page.locator("[data-task-id]")).toHaveAttribute("data-task-id", String(current));

  await page.keyboard.press("Escape");
  await page.locator("[data-task-id]").focus();
  await page.keyboard.press("?");
  const keys = page.getByRole("dialog", { name: "Review keys" });
  await expect(keys).toBeVisible();
  await expect(keys).toContainText("Previous");
  // A decision key pressed behind the open dialog does nothing.
  await page.keyboard.press("a");
  await shot(page, "queue-keys");
  await page.keyboard.press("Escape");
  await expect(keys).toBeHidden();
  await expect(page.locator("[data-task-id]")).toHaveAttribute("data-task-id", String(current));

  for (const d of decided) {
    const items = ((await (await page.request.get(`/api/v1/tasks/${d.id}/reviews`)).json()) as { items: ReviewJson[] }).items;
    expect(items[0]?.decision, `task ${d.id}`).toBe(d.decision);
    expect(items[0]?.by).toBe(credentials("reviewer").email);
  }
  const detail = (await (await page.request.get(`/api/v1/queues/${queue.id}`)).json()) as QueueDetailJson;
  expect(detail.progress.done).toBe(10);
  expect(detail.mine.history.map((h) => h.id)).toEqual(decided.map((d) => d.id));
  // The panel caught up with the quick decisions by itself (read again once its few seconds were up).
  await expect(page.getByTestId("queue-left")).toHaveText(String(detail.progress.left));
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "queue-screen");
  await admin.close();
});

test("a queue made from a task-table filter; the list shows its progress", async ({ page }) => {
  await page.goto("/review/new?run=demo&round=8&status=accepted&limit=100");
  const form = page.getByRole("form", { name: "New review queue" });
  await expect(form.getByLabel("Name")).toHaveValue("run demo · round 8 · status accepted");
  await expect(form.getByLabel(/^Filter/)).toHaveValue("round=8&run=demo&status=accepted");
  await expect(form).toContainText(/\d+ tasks match now/);
  await shot(page, "queue-new");
  await form.getByLabel("Name").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/review\/\d+$/);
  await shownTask(page);

  await page.goto("/review");
  const table = page.getByRole("table", { name: "Review queues" });
  await expect(table).toContainText("run demo · round 8 · status accepted");
  await expect(table).toContainText("keyboard");
  await expect(table.getByRole("img", { name: /keyboard: 10 of \d+ done/ }).first()).toBeVisible();
  await shot(page, "review-queues");
});
