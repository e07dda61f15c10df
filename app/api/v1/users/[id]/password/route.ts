import { json } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { resetPassword } from "@/lib/data/admin";

export const dynamic = "force-dynamic";

/** Sets a new one-time password (returned once) and ends that person's sessions. */
export const POST = route<{ id: string }>("admin", async ({ actor, params }) => json(await resetPassword(actor, params.id)));
