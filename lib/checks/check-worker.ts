// Entry of a checker thread (ThreadPool): runs the batches the main thread sends, one reply each;
// a thrown error becomes an error reply.
import { parentPort } from "node:worker_threads";
import type { Finding } from "@/lib/flags/types";
import type { ThreadReply } from "@/lib/ingest/threads";
import { checkJob, type CheckJob } from "./batch";

const port = parentPort;
if (!port) throw new Error("check-worker runs in a worker thread");

port.on("message", ({ id, job }: { id: number; job: CheckJob }) => {
  checkJob(job).then(
    (result) => port.postMessage({ id, result } satisfies ThreadReply<Finding[]>),
    (err: unknown) => port.postMessage({ id, error: (err as Error).stack ?? String(err) } satisfies ThreadReply<Finding[]>),
  );
});
