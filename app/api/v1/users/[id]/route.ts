import { badRequest, json } from "@/lib/api/http";
import { personPatchSchema } from "@/lib/api/admin-schemas";
import { readJson, route } from "@/lib/api/route";
import { changeRole, setActive } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

/** `{role?, active?}`: change a role, deactivate (ends their sessions) or reactivate. */
export const PATCH = route<{ id: string }>("admin", async ({ actor, req, params }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = personPatchSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  if (parsed.data.role !== undefined) await changeRole(actor, params.id, parsed.data.role);
  if (parsed.data.active !== undefined) await setActive(actor, params.id, parsed.data.active);
  return json({ ok: true });
});
