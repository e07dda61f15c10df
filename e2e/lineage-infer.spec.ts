// Lineage inference (C12) in the browser: a set of Harbor task directories with opaque ids and no
// parents is uploaded; on the Overview an admin infers its lineage (the numbers first, then the
// links); the task page then shows the inferred parent with its confidence and evidence.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { TaskListJson } from "@/lib/api/types";
import { writeOpaqueFamily } from "../lib/ingest/fixtures";
import { storageState } from "./auth";
import { shot } from "./shots";
import { uploadRunDirectory } from "./upload";

const RUN = "opaque-e2e";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-opaque-"));
  try {
    writeOpaqueFamily(dir);
    await uploadRunDirectory(request, dir, RUN, { headers: { origin: baseURL ?? "" } });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("an admin infers a run's lineage from the Overview and sees it on a task page", async ({ page }) => {
  await page.goto(`/?run=${RUN}`);
  const card = page.getByRole("region", { name: RUN });
  await expect(card).toContainText("tasks · ingested");
  await expect(card).toContainText("no lineage");
  await expect(card).toContainText("No rounds: these tasks arrived without lineage.");
  await card.getByRole("button", { name: "Infer lineage…" }).click();

  const dialog = page.getByRole("dialog", { name: `Infer the lineage of ${RUN}` });
  await expect(dialog.getByTestId("infer-numbers")).toContainText("Would link 3 of 5 tasks to a parent; 2 are roots.");
  await shot(page, "lineage-infer-dialog");
  await dialog.getByRole("button", { name: "Link 3 tasks" }).click();
  await expect(dialog.getByTestId("infer-numbers")).toContainText("Linked 3 of 5 tasks");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(card).toContainText("lineage inferred");
  // The run's stored counts follow the new tree: two seeds, rounds 0–2.
  await expect(card).toContainText(/2\s*seeds/);
  await expect(card.getByRole("button", { name: "Infer lineage again…" })).toBeVisible();

  const list = (await (await page.request.get(`/api/v1/tasks?run=${RUN}&q=t-c03d`)).json()) as TaskListJson;
  const task = list.items.find((t) => t.task_id === "t-c03d");
  expect(task?.round).toBe(2);
  await page.goto(`/tasks/${task?.id}`);
  const lineage = page.getByRole("region", { name: "Lineage" });
  const badge = lineage.getByTestId("lineage-inferred");
  await expect(badge).toContainText(/inferred\s*\d+ %/);
  await expect(badge).toHaveAttribute("title", /Keeps 8 of its parent's 8 solution lines, in order \(11 of its own\)/);
  await expect(lineage.getByRole("tree")).toContainText("t-1a7e");
  await expect(lineage.getByRole("tree")).toContainText("t-9f2c");
  await expect(lineage.getByRole("tree")).toContainText("operator unknown");
  await expect(lineage.getByRole("link", { name: "Diff vs parent" })).toBeVisible();
  await shot(page, "lineage-inferred-task");
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageState("reviewer") });
  test("the Overview offers no inference, and the API refuses one", async ({ page }) => {
    await page.goto(`/?run=${RUN}`);
    await expect(page.getByRole("region", { name: RUN })).toContainText("lineage inferred");
    await expect(page.getByRole("button", { name: /Infer lineage/ })).toHaveCount(0);
    const res = await page.request.post(`/api/v1/runs/${RUN}/lineage`, { data: { dry_run: true }, headers: { origin: new URL(page.url()).origin } });
    expect(res.status()).toBe(403);
  });
});
