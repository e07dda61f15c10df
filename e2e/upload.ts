// Seeding a spec: pack a run directory, upload it through the ingest API, wait for the import.
import { gzipSync } from "node:zlib";
import { expect, type APIRequestContext } from "@playwright/test";
import { packDirectory } from "../lib/upload/pack";

export interface UploadOptions {
  /** request headers besides the content type: an Origin for a session, or a bearer token */
  headers: Record<string, string>;
  /** how long the import may take */
  timeout?: number;
  /** the directory already packed (gzip), when the caller needs to look at it first */
  archive?: Buffer;
}

/** A run directory as the upload sends it. */
export async function packRun(dir: string, level = 1): Promise<Buffer> {
  return gzipSync(await packDirectory(dir), { level });
}

/** Uploads `dir` as the run (or the trials for the run) `run`; resolves with the import's summary. */
export async function uploadRunDirectory(request: APIRequestContext, dir: string, run: string, opts: UploadOptions): Promise<Record<string, unknown>> {
  const archive = opts.archive ?? (await packRun(dir));
  const res = await request.post(`/api/v1/ingest?run=${encodeURIComponent(run)}`, {
    data: archive,
    headers: { "content-type": "application/gzip", ...opts.headers },
    timeout: 300_000,
  });
  expect(res.status(), await res.text()).toBe(202);
  const { progress_url } = (await res.json()) as { progress_url: string };
  let summary: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        // A server busy importing may drop a kept-alive connection as it is reused: ask again.
        const res = await request.get(progress_url, { headers: opts.headers }).catch(() => null);
        if (!res) return "unreachable";
        const body = (await res.json()) as { status: string; summary?: Record<string, unknown> };
        summary = body.summary ?? {};
        return body.status;
      },
      { timeout: opts.timeout ?? 240_000 },
    )
    .toMatch(/^(done|unchanged)$/);
  return summary;
}
