import { flagChangeSchema } from "@/lib/api/flag-schemas";
import { badRequest, json, notFound, parseId } from "@/lib/api/http";
import { readJson, route } from "@/lib/api/route";
import { getFlag, setFlagStatus } from "@/lib/data/flags";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const flag = id === null ? null : await getFlag(actor, id);
  return flag ? json(flag) : notFound("flag");
});

/** `{status: "resolved"|"dismissed"|"open", reason}`: the flag as it is now (unchanged if it already had that status). */
export const PATCH = route<{ id: string }>(
  "flag",
  async ({ actor, params, req }) => {
    const id = parseId(params.id);
    if (id === null) return notFound("flag");
    const body = await readJson(req);
    if (!body.ok) return body.response;
    const parsed = flagChangeSchema.safeParse(body.body);
    if (!parsed.success) return badRequest(parsed.error);
    const result = await setFlagStatus(actor, id, parsed.data);
    return result.ok ? json(result.flag) : notFound("flag");
  },
  { body: "json" },
);
