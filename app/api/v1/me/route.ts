import { json } from "@/lib/api/http";
import { route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

/** Who the request is authenticated as: scripts use it to check a token. */
export const GET = route("read", async ({ actor }) => json({ id: actor.id, kind: actor.kind, label: actor.label, role: actor.role }));
