// Request bodies of /api/v1/queues: strict, so an unknown field is an error, not ignored.
import { z } from "zod";
import { parseTaskFilter, type TaskFilter } from "@/lib/tasks/filter";

const taskId = z.number().int().positive().max(2_147_483_647);

/** A task-table query string (`run=demo&round=12`), with or without `?`, or a whole task-table URL. */
export const filterText = z.string().trim().max(4000);

export function filterFromText(text: string): { ok: true; filter: TaskFilter } | { ok: false; message: string } {
  const q = text.includes("?") ? text.slice(text.indexOf("?") + 1) : text;
  const parsed = parseTaskFilter(new URLSearchParams(q.split("#")[0]));
  if (parsed.ok) return parsed;
  return { ok: false, message: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
}

export const newQueueSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  filter: filterText,
  reservation_minutes: z.number().int().min(1).max(24 * 60).optional(),
});
export type NewQueueBody = z.infer<typeof newQueueSchema>;

/** One of: the tasks a filter matches, these tasks, or what the queue's own filter matches now. */
export const addItemsSchema = z.union([
  z.strictObject({ filter: filterText }),
  z.strictObject({ task_ids: z.array(taskId).min(1).max(10_000) }),
  z.strictObject({ refresh: z.literal(true) }),
]);
export type AddItemsBody = z.infer<typeof addItemsSchema>;

export const skipSchema = z.strictObject({ task_id: taskId });

export const patchQueueSchema = z.strictObject({ archived: z.boolean() });
