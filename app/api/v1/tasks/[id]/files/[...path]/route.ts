import { notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getTaskFile } from "@/lib/data/read";

export const dynamic = "force-dynamic";

/** Raw bytes as an attachment: never rendered by the browser, whatever the file claims to be. */
export const GET = route<{ id: string; path: string[] }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const filePath = params.path.map((p) => decodeURIComponent(p)).join("/");
  const file = id === null ? null : await getTaskFile(actor, id, filePath);
  if (!file) return notFound("file");
  const bytes = file.encoding === "base64" ? Buffer.from(file.content, "base64") : Buffer.from(file.content.replaceAll("\u2400", "\0"), "utf8");
  const base = filePath.split("/").pop() ?? "file";
  return new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${base.replace(/[^\w.-]/g, "_")}"`,
      "x-content-type-options": "nosniff",
      // Revalidated every time: a signed-out browser must not serve it from its cache.
      "cache-control": "private, no-cache",
      etag: `"${file.hash}"`,
    },
  });
});
