// POST a run archive (the native layout as .tar or .tar.gz, body as is) or a JSONL file of tasks
// (FORMATS.md §6): unpacked with every entry checked, or saved as it is, then imported in the
// background. 202 with the import id and where to poll.
import { json, apiError } from "@/lib/api/http";
import { route } from "@/lib/api/route";
import { startUploadedImport } from "@/lib/data/ingest";
import { ArchiveError } from "@/lib/upload/archive";

export const dynamic = "force-dynamic";

export const POST = route(
  "ingest",
  async ({ actor, req }) => {
    if (!req.body) return apiError(400, "bad_request", "the body must be the run archive or the JSONL file");
    const params = new URL(req.url).searchParams;
    const runName = params.get("run")?.trim() || undefined;
    try {
      const started = await startUploadedImport(actor, req.body, { runName, label: `upload by ${actor.label}` });
      if (!started.ok) return apiError(400, "bad_input", started.error.message, started.error.issues);
      return json({ import_id: started.importId, progress_url: `/api/v1/imports/${started.importId}` }, { status: 202 });
    } catch (err) {
      if (err instanceof ArchiveError) return apiError(400, "bad_archive", err.message, err.entry === undefined ? undefined : { entry: err.entry });
      throw err;
    }
  },
  { body: "archive" },
);
