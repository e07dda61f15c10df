import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { loadQueueMember } from "@/lib/review/member";

export const dynamic = "force-dynamic";

/** A member with everything the review screen shows (task, instruction, trials, the step from the parent); `?files=1` adds the highlighted file diffs. */
export const GET = route<{ id: string; taskId: string }>("read", async ({ actor, params, req }) => {
  const id = parseId(params.id);
  const taskId = parseId(params.taskId);
  const files = new URL(req.url).searchParams.get("files") === "1";
  const item = id === null || taskId === null ? null : await loadQueueMember(actor, id, taskId, { files });
  return item ? json(item) : notFound("queue member");
});
