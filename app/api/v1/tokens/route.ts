import { badRequest, json } from "@/lib/api/http";
import { newTokenSchema } from "@/lib/api/admin-schemas";
import { readJson, route } from "@/lib/api/route";
import { createToken, listTokens } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

export const GET = route("admin", async ({ actor }) => {
  const items = await listTokens(actor);
  return json({
    items: items.map((t) => ({ id: t.id, name: t.name, role: t.role, prefix: t.prefix, created_by: t.createdBy, created_at: t.createdAt, last_used_at: t.lastUsedAt, revoked_at: t.revokedAt })),
    next: null,
    total: items.length,
  });
});

/** The secret is in this answer only; the server keeps its hash. */
export const POST = route("admin", async ({ actor, req }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = newTokenSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const created = await createToken(actor, parsed.data);
  return json({ id: created.id, name: parsed.data.name, role: parsed.data.role, token: created.token }, { status: 201 });
});
