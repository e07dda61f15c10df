// Entry of the step-summary thread (./summary-thread): one reply per message; a thrown error
// becomes an error reply.
import { parentPort } from "node:worker_threads";
import { clearSummaryCaches, stepSummary } from "./summary";
import type { SummaryJob, SummaryReply } from "./summary-thread";

const port = parentPort;
if (!port) throw new Error("summary-worker runs in a worker thread");

port.on("message", (job: SummaryJob) => {
  const reply = (r: SummaryReply) => port.postMessage(r);
  if (job.op === "clear") {
    clearSummaryCaches();
    reply({ id: job.id, result: null });
    return;
  }
  stepSummary(job.parent, job.child).then(
    (result) => reply({ id: job.id, result }),
    (err: unknown) => reply({ id: job.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
