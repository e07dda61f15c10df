import { json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { revokeToken } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

/** Revokes a token at once; revoking twice changes nothing. */
export const DELETE = route<{ id: string }>("admin", async ({ actor, params }) => {
  const id = parseId(params.id);
  if (id === null) return notFound("token");
  await revokeToken(actor, id);
  return json({ ok: true });
});
