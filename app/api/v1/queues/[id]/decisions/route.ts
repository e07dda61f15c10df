import { badRequest, notFound, parseId } from "@/lib/api/http";
import { baseVersionRequired, refusedDecision } from "@/lib/api/review-answer";
import { queueDecisionSchema } from "@/lib/api/review-schemas";
import { readJson, route } from "@/lib/api/route";
import { recordReview } from "@/lib/data/reviews";
import { afterDecision } from "@/lib/review/after-decision";

export const dynamic = "force-dynamic";

/**
 * Submit-and-next in one request: the decision (as `POST /tasks/{id}/reviews`, with its 404, 409
 * and 428), then — streamed as a second line once the first is sent — the caller's next holds, the
 * member data they lack, and the progress when asked. A refused decision answers as the reviews
 * route does, with nothing after it.
 */
export const POST = route<{ id: string }>(
  "review",
  async ({ actor, params, req }) => {
    const id = parseId(params.id);
    if (id === null) return notFound("queue");
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = queueDecisionSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const { task_id, have, progress, base_version, ...review } = parsed.data;
    if (base_version === undefined) return baseVersionRequired();
    const result = await recordReview(actor, task_id, { ...review, base_version });
    if (!result.ok) return refusedDecision(result, base_version);
    const encoder = new TextEncoder();
    const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        // The decision is committed: the reviewer's screen may move on while the rest is made.
        controller.enqueue(line({ decision: result.state }));
        try {
          controller.enqueue(line(await afterDecision(actor, id, { have: have ?? [], progress: progress ?? false })));
        } catch (err) {
          console.error("after a queue decision:", err);
          controller.enqueue(line({ error: { code: "internal", message: "the decision is recorded; asking for the next task failed" } }));
        }
        controller.close();
      },
    });
    return new Response(stream, { status: 201, headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
  },
  { body: "json" },
);
