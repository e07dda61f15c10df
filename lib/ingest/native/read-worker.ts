// Entry of a reader thread (ThreadPool): reads candidates as the main thread asks, in order of
// arrival. Every job gets exactly one reply; a thrown error becomes an error reply.
import { parentPort } from "node:worker_threads";
import type { ThreadReply } from "../threads";
import { readCandidate, type CandidateJob, type CandidateResult } from "./read-candidate";

const port = parentPort;
if (!port) throw new Error("read-worker runs in a worker thread");

port.on("message", ({ id, job }: { id: number; job: CandidateJob }) => {
  readCandidate(job).then(
    (result) => port.postMessage({ id, result } satisfies ThreadReply<CandidateResult>),
    (err: unknown) => port.postMessage({ id, error: (err as Error).stack ?? String(err) } satisfies ThreadReply<CandidateResult>),
  );
});
