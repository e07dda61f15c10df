// Export (C10) from the task table: the curated set "accepted, no open flag, rounds 14–15" chosen
// with the table's own filters, counted in the dialog, downloaded as JSONL and as a Harbor tar.gz
// holding exactly those tasks. Only admins get the button.
import fs from "node:fs";
import { gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import type { TaskListJson } from "@/lib/api/types";
import { storageState } from "./auth";
import { shot } from "./shots";
import { tableTotal } from "./table";

test("an admin exports the filtered tasks as JSONL and as Harbor directories", async ({ page }) => {
  await page.goto("/tasks?run=demo&status=accepted&round_min=14&round_max=15");
  await page.getByLabel("Flags").selectOption("none");
  await expect(page).toHaveURL(/flag=none/);
  // The API's count of the same filter; the table settles on it (a first read may still show the
  // count before the flag filter).
  const listed = (await (await page.request.get("/api/v1/tasks?run=demo&status=accepted&round_min=14&round_max=15&flag=none&limit=1")).json()) as TaskListJson;
  const total = listed.total;
  expect(total).toBeGreaterThan(0);
  await expect.poll(() => tableTotal(page)).toBe(total);

  await page.getByRole("button", { name: "Export…" }).click();
  const dialog = page.getByRole("dialog", { name: "Export tasks" });
  await expect(dialog.getByTestId("export-count")).toHaveText(total.toLocaleString("en-US"));
  await expect(dialog).toContainText("flag=none&round_max=15&round_min=14&run=demo&status=accepted");
  await dialog.getByLabel("JSONL").check();
  await shot(page, "export-dialog");

  const [jsonl] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download" }).click()]);
  expect(jsonl.suggestedFilename()).toMatch(/^rst-export-\d{8}T\d{6}Z\.jsonl$/);
  const lines = fs.readFileSync(await jsonl.path(), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
  expect(lines).toHaveLength(total);
  for (const l of lines) {
    expect(l.status).toBe("accepted");
    expect(l.round).toBeGreaterThanOrEqual(14);
    expect(l.metadata).toMatchObject({ run: "demo", open_flags: 0 });
    expect(Object.keys(l.files)).toEqual(expect.arrayContaining(["instruction.md", "solution/solve.sh", "task.toml"]));
  }
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Export…" }).click();
  const [archive] = await Promise.all([page.waitForEvent("download"), page.getByRole("dialog", { name: "Export tasks" }).getByRole("link", { name: "Download" }).click()]);
  expect(archive.suggestedFilename()).toMatch(/\.tar\.gz$/);
  const tar = gunzipSync(fs.readFileSync(await archive.path()));
  // Each task's solve.sh is one tar header naming it; the manifest closes the archive.
  const solves = tar.toString("latin1").match(/rst-export-\d{8}T\d{6}Z\/demo\/[^/\0]+\/solution\/solve\.sh/g) ?? [];
  expect(new Set(solves).size).toBe(total);
  expect(tar.toString("latin1")).toContain('"format":"rst-curator-export"');
});

test.describe("as a reviewer", () => {
  test.use({ storageState: storageState("reviewer") });
  test("the task table offers no export, and the API refuses one", async ({ page }) => {
    await page.goto("/tasks?run=demo");
    await expect(page.getByRole("button", { name: "Bulk…" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Export…" })).toHaveCount(0);
    const res = await page.request.get("/api/v1/export?run=demo&format=jsonl");
    expect(res.status()).toBe(403);
  });
});
