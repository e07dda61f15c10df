import { attachment, notFound, parseId } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { getTaskFile } from "@/lib/data/read";
import { storedBytes } from "@/lib/ingest/content";

export const dynamic = "force-dynamic";

/** Raw bytes as an attachment: never rendered by the browser, whatever the file claims to be. */
export const GET = route<{ id: string; path: string[] }>("read", async ({ actor, params }) => {
  const id = parseId(params.id);
  const filePath = params.path.map((p) => decodeURIComponent(p)).join("/");
  const file = id === null ? null : await getTaskFile(actor, id, filePath);
  if (!file) return notFound("file");
  return attachment(storedBytes(file), filePath.split("/").pop() ?? "file", file.hash);
});
