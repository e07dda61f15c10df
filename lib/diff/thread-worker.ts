// Entry of the diff thread (./thread): one reply per message; a thrown error becomes an error reply.
import { parentPort } from "node:worker_threads";
import { clearHighlightCache } from "@/lib/text/highlight";
import { fileSides } from "./payload";
import { clearSummaryCaches, stepSummary } from "./summary";
import type { ThreadJob, ThreadReply, ThreadResult } from "./thread";

const port = parentPort;
if (!port) throw new Error("thread-worker runs in a worker thread");

function work(job: ThreadJob): Promise<ThreadResult> {
  if (job.op === "summary") return stepSummary(job.parent, job.child, job.known);
  if (job.op === "sides") return fileSides(job.path, job.oldText, job.newText, job.rows);
  clearHighlightCache();
  clearSummaryCaches();
  return Promise.resolve(null);
}

port.on("message", (job: ThreadJob) => {
  work(job).then(
    (result) => port.postMessage({ id: job.id, result } satisfies ThreadReply),
    (err: unknown) => port.postMessage({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies ThreadReply),
  );
});
