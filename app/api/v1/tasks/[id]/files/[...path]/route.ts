import { getDb } from "@/db/client";
import { getTaskFile } from "@/db/queries/tasks";
import { notFound, parseId } from "@/lib/api/http";

export const dynamic = "force-dynamic";

/** Raw bytes as an attachment: never rendered by the browser, whatever the file claims to be. */
export async function GET(_req: Request, ctx: { params: Promise<{ id: string; path: string[] }> }): Promise<Response> {
  const params = await ctx.params;
  const id = parseId(params.id);
  const filePath = params.path.map((p) => decodeURIComponent(p)).join("/");
  const file = id === null ? null : await getTaskFile(await getDb(), id, filePath);
  if (!file) return notFound("file");
  const bytes = file.encoding === "base64" ? Buffer.from(file.content, "base64") : Buffer.from(file.content.replaceAll("\u2400", "\0"), "utf8");
  const base = filePath.split("/").pop() ?? "file";
  return new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${base.replace(/[^\w.-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=3600, immutable",
      etag: `"${file.hash}"`,
    },
  });
}
