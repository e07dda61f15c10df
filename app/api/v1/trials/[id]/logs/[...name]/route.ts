import { z } from "zod";
import { apiError, attachment, badRequest, json, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getLogRange, getTrialLogBytes, searchTrialLog } from "@/lib/data/trials";
import { MAX_RANGE_LINES } from "@/lib/log/lines";
import { LogSearchError, MAX_QUERY_CHARS } from "@/lib/log/search";

export const dynamic = "force-dynamic";

const flag = z.enum(["0", "1", "true", "false"]).optional();
const querySchema = z.object({
  from: z.coerce.number().int().min(0).default(0),
  to: z.coerce.number().int().min(0).optional(),
  q: z.string().min(1).max(MAX_QUERY_CHARS).optional(),
  regex: flag,
  case: flag,
  download: flag,
});

const on = (v: string | undefined) => v === "1" || v === "true";

/**
 * One log of a trial, three ways: a line range (`from`, `to`: 0-based, `to` exclusive, at most
 * MAX_RANGE_LINES), a search (`q`, optional `regex` and `case`), or the raw bytes (`download`).
 */
export const GET = route<{ id: string; name: string[] }>("read", async ({ actor, req, params }) => {
  const id = parseId(params.id);
  const name = params.name.map((p) => decodeURIComponent(p)).join("/");
  if (id === null) return notFound("log");
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return badRequest(parsed.error);
  const q = parsed.data;

  if (on(q.download)) {
    const found = await getTrialLogBytes(actor, id, name);
    if (!found) return notFound("log");
    return attachment(found.bytes, `${found.meta.trialExtId}-${name.replaceAll("/", "-")}`, found.meta.blobHash);
  }

  if (q.q !== undefined) {
    try {
      const result = await searchTrialLog(actor, id, name, { q: q.q, regex: on(q.regex), caseSensitive: on(q.case) });
      return result ? json(result) : notFound("log");
    } catch (err) {
      if (err instanceof LogSearchError) return apiError(400, "bad_search", err.message);
      throw err;
    }
  }

  const to = Math.min(q.to ?? q.from + 1000, q.from + MAX_RANGE_LINES);
  const range = await getLogRange(actor, id, name, q.from, to);
  return range ? json(range) : notFound("log");
});
