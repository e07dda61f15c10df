// Import formats beyond the native run, in the browser: the public RST release (tar shards and a
// parquet, uploaded as one archive) whose lineage an admin then infers from the Overview, and a
// folder of Terminal-Bench 1 tasks shown on the task page in the Harbor layout they were mapped to.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { TaskListJson } from "@/lib/api/task-types";
import { generateRun } from "../lib/generate";
import { writeRelease } from "../lib/generate/release";
import { writeTerminalBench1Task } from "../lib/ingest/tb1-fixtures";
import { storageState } from "./auth";
import { shot } from "./shots";
import { uploadRunDirectory } from "./upload";

const RELEASE = "release-e2e";
const TB1 = "tb1-e2e";

test.use({ storageState: storageState("admin") });

test("a public release uploads as one archive; an admin infers its lineage, and the parents are the true ones", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-release-e2e-"));
  let truth: { id: string; parent_id: string | null }[] = [];
  try {
    await generateRun({ out: path.join(dir, "native"), tasks: 40, rounds: 3, seed: 7 });
    await writeRelease(path.join(dir, "native"), path.join(dir, "release"), { tasksPerShard: 15 });
    truth = fs
      .readFileSync(path.join(dir, "release/lineage-truth.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; parent_id: string | null });
    const summary = await uploadRunDirectory(request, path.join(dir, "release"), RELEASE, { headers: { origin: baseURL ?? "" } });
    expect(summary).toMatchObject({ format: "release", tasksNew: truth.length });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  await page.goto(`/?run=${RELEASE}`);
  const card = page.getByRole("region", { name: RELEASE });
  await expect(card).toContainText("no lineage");
  await card.getByRole("button", { name: "Infer lineage…" }).click();
  const dialog = page.getByRole("dialog", { name: `Infer the lineage of ${RELEASE}` });
  await expect(dialog.getByTestId("infer-numbers")).toContainText(new RegExp(`Would link \\d+ of ${truth.length} tasks to a parent`));
  await dialog.getByRole("button", { name: /^Link \d+ tasks$/ }).click();
  await expect(dialog.getByTestId("infer-numbers")).toContainText(/Linked \d+ of/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(card).toContainText("lineage inferred");
  await shot(page, "release-overview");

  const list = (await (await page.request.get(`/api/v1/tasks?run=${RELEASE}&limit=500`)).json()) as TaskListJson;
  expect(list.items).toHaveLength(truth.length);
  const extId = new Map(list.items.map((t) => [t.id, t.task_id]));
  const found = new Map(list.items.map((t) => [t.task_id, t.parent_id === null ? null : extId.get(t.parent_id)]));
  const right = truth.filter((t) => found.get(t.id) === t.parent_id).length;
  expect(right / truth.length).toBeGreaterThan(0.9);

  // A child's page: its inferred parent, with the diff one click away.
  const child = list.items.find((t) => t.parent_id !== null && (t.round ?? 0) >= 2);
  await page.goto(`/tasks/${child?.id}`);
  await expect(page.getByRole("region", { name: "Lineage" }).getByTestId("lineage-inferred")).toContainText(/inferred\s*\d+ %/);
  await shot(page, "release-task");
});

test("Terminal-Bench 1 tasks import in the Harbor layout; the task page shows the mapped files and the keystroke solution", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rst-tb1-e2e-"));
  try {
    writeTerminalBench1Task(dir, { id: "hello-world" });
    writeTerminalBench1Task(dir, { id: "keystrokes", solutionYaml: true });
    const summary = await uploadRunDirectory(request, dir, TB1, { headers: { origin: baseURL ?? "" } });
    expect(summary).toMatchObject({ format: "tasks", tasksNew: 2 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const list = (await (await page.request.get(`/api/v1/tasks?run=${TB1}&q=keystrokes`)).json()) as TaskListJson;
  const task = list.items.find((t) => t.task_id === "keystrokes");
  expect(task?.commands).toBe(3);
  await page.goto(`/tasks/${task?.id}`);
  await expect(page.getByRole("heading", { name: "keystrokes" }).first()).toBeVisible();
  for (const f of ["task.toml", "solution/solution.yaml", "tests/test.sh", "environment/Dockerfile"]) await expect(page.getByText(f, { exact: true }).first()).toBeVisible();
  await page.getByText("task.toml", { exact: true }).first().click();
  await expect(page.getByText("from a Terminal-Bench 1 task.yaml", { exact: false }).first()).toBeVisible();
  await shot(page, "tb1-task");
});
