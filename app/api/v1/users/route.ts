import { badRequest, json } from "@/lib/api/http";
import { newPersonSchema } from "@/lib/api/admin-schemas";
import { readJson, route } from "@/lib/api/route";
import { addPerson, listPeople } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

export const GET = route("admin", async ({ actor }) => {
  const items = await listPeople(actor);
  return json({
    items: items.map((u) => ({ id: u.id, email: u.email, name: u.name, role: u.role, active: u.active, created_at: u.createdAt.toISOString(), last_sign_in_at: u.lastSignInAt, sessions: u.sessions })),
    next: null,
    total: items.length,
  });
});

/** Creates a person; the answer carries the one-time password, shown once. */
export const POST = route("admin", async ({ actor, req }) => {
  const body = await readJson(req);
  if (!body.ok) return body.response;
  const parsed = newPersonSchema.safeParse(body.body);
  if (!parsed.success) return badRequest(parsed.error);
  const created = await addPerson(actor, parsed.data);
  return json({ id: created.id, email: created.email, role: parsed.data.role, password: created.password }, { status: 201 });
});
