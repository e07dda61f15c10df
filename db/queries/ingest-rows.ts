// What an import hands to RunWriter (db/queries/ingest.ts): a run, its tasks and trials as the
// readers build them, the counts it reports; and the recordsets its rows travel in.
import { sql } from "drizzle-orm";
import type { StoredContent } from "@/lib/ingest/content";
import type { LogChunk } from "@/lib/ingest/log-chunks";
import { recordset } from "./bulk";
import { blobs, checkReadings, evals, logChunks, tasks, taskSearch, trials, type NewTask } from "../schema";

export const BLOBS = recordset(blobs, ["hash", "size", "encoding", "content"]);
export const READINGS = recordset(checkReadings, ["hash", "reader", "reading"]);
export const EVALS = recordset(evals, ["taskId", "model", "k", "n", "successes", "meanReward"]);
export const LOG_CHUNKS = recordset(logChunks, ["blobHash", "firstLine", "lineCount", "content", "clipped"]);
const TASK_KEYS = [
  "id", "parentId", "rootId", "depth", "path", "extId", "parentExtId", "round", "operator", "status", "rejectionReason", "repairAttempts", "createdAt", "name",
  "category", "declaredDifficulty", "contentHash", "metadata", "solutionLines", "commands", "distinctTools",
  "instructionWords", "verifierTests", "verifierAsserts", "evalModel", "evalK", "evalN", "evalSuccesses", "passAtK",
  "passAt1", "meanReward",
] as const satisfies readonly (keyof NewTask)[];
export const TASKS = recordset(tasks, TASK_KEYS);
export const TASK_SEARCH = recordset(taskSearch, ["taskId", "runId", "pairs"]);
/** A search row's vector where the database builds it: to_tsvector of the text (the readers'
 * vectors arrive through COPY instead: RunWriter.copySearchRows). */
export const SEARCH_VECTOR = {
  columns: sql`search`,
  values: sql`to_tsvector('simple', r."searchText")`,
  fields: sql`"searchText" text`,
};
const TRIAL_KEYS = [
  "taskId", "extId", "check", "agentName", "modelName", "reward", "rewards", "exceptionType", "exceptionMessage",
  "taskChecksum", "contentHash", "startedAt", "finishedAt", "phases", "problems", "source",
] as const satisfies readonly (keyof typeof trials.$inferInsert)[];
export const TRIALS = recordset(trials, TRIAL_KEYS);

export interface RunInput {
  name: string;
  format: string;
  sourcePath: string;
  meta: Record<string, unknown>;
  createdAt: string | null;
  /** a run already in the database keeps its meta (a JSONL file adding tasks to a run imported
   * from its directory must not replace its run.json) */
  keepMeta?: boolean;
}

export interface TaskInput {
  row: Omit<NewTask, "runId">;
  /** the text searched; left out (null) by a reader that built its vector for a writer that takes
   * the reader's vectors (`RunWriter.needsSearchText`) */
  searchText: string | null;
  /** to_tsvector('simple', searchText) in tsvector's binary form, when the reader could build it
   * (lib/ingest/search-vector.ts); null leaves it to the database */
  searchVector: Uint8Array | null;
  /** hashes of its adjacent word pairs (lib/ingest/search-vector.ts), with the vector; only those
   * missing from the parent's when `searchPairsFrom` names the parent; null when unknown */
  searchPairs?: number[] | null;
  /** the parent (task id in the run) whose pairs `searchPairs` leaves out, or null: all of them */
  searchPairsFrom?: string | null;
  files: { path: string; stored: StoredContent }[];
  /** what the consistency checks read of its files (lib/checks/readings.ts), stored by blob */
  readings?: ReadingRow[];
  evals: { model: string; k: number; n: number; successes: number; meanReward: number | null }[];
}

/** A stored reading (lib/checks/readings.ts StoredReading) with its reading as JSON text: made in
 * the reader thread, it crosses to the writer as one string and goes into the json column as is. */
export interface ReadingRow {
  hash: string;
  reader: string;
  json: string;
}

export interface TrialInput {
  taskExtId: string;
  extId: string;
  row: Omit<typeof trials.$inferInsert, "runId" | "taskId" | "extId">;
  tests: { name: string; status: string; durationMs: number | null; message: string | null; logName: string | null; logLine: number | null }[];
  logs: { name: string; stored: StoredContent; lines: number; chunks: LogChunk[] | null }[];
}

export interface WriteCounts {
  tasksNew: number;
  tasksChanged: number;
  tasksUnchanged: number;
  trialsNew: number;
  files: number;
  blobsNew: number;
  bytesNew: number;
}
