import { badRequest, json } from "@/lib/api/http";
import { auditQuerySchema } from "@/lib/api/admin-schemas";
import { route } from "@/lib/api/route";
import { listAudit } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

export const GET = route("admin", async ({ actor, req }) => {
  const parsed = auditQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const q = parsed.data;
  const page = await listAudit(actor, { action: q.action, actor: q.actor, targetType: q.target_type, targetId: q.target_id, before: q.cursor, limit: q.limit });
  return json({
    items: page.items.map((r) => ({ id: r.id, at: r.at, actor_id: r.actorId, actor: r.actorLabel, action: r.action, target_type: r.targetType, target_id: r.targetId, details: r.details })),
    next: page.next === null ? null : String(page.next),
  });
});
