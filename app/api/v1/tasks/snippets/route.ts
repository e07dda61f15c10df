import { z } from "zod";
import { MAX_SNIPPET_TASKS } from "@/db/queries/task-snippets";
import { badRequest, json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getTaskSnippets } from "@/lib/data/read";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  q: z.string().min(1).max(500),
  ids: z
    .string()
    .regex(/^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/, "comma-separated task ids")
    .transform((s) => s.split(",").map(Number))
    .refine((ids) => ids.length <= MAX_SNIPPET_TASKS, `at most ${MAX_SNIPPET_TASKS} ids`)
    .refine((ids) => ids.every((id) => id <= 2_147_483_647), "task id out of range"),
});

/** Where the search `q` matched in each of the tasks `ids` (a page of the task table). */
export const GET = route("read", async ({ actor, req }) => {
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  return json(await getTaskSnippets(actor, parsed.data.ids, parsed.data.q));
});
