// Better Auth's endpoints (sign-in, sign-out, session, password change) under /api/auth.
import { getDatabase } from "@/db/client";
import { handleAuthRequest } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

async function handle(req: Request): Promise<Response> {
  return handleAuthRequest(await getDatabase(), req);
}

export const GET = handle;
export const POST = handle;
