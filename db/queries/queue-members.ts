// What the review screen shows of one queue member: who holds it, whether it is done, the task
// with its last review, instruction and parent's file list, and the texts of its step's files.
// Read on every submit-and-next, so each is one prepared statement.
import { sql } from "drizzle-orm";
import type { ReviewJson, TaskDetailJson } from "@/lib/api/types";
import { passAtK } from "@/lib/metrics/pass-at-k";
import { execRows, type Db } from "../client";
import { DONE, num } from "./queues";

/** The file the review screen shows as the task's instruction. */
const INSTRUCTION_FILE = "instruction.md";

/** A member's state for the review screen: who holds it and whether it is done. */
export async function getMemberState(db: Db, queueId: number, taskId: number): Promise<{ reservedBy: string | null; done: boolean } | null> {
  const [row] = await execRows<{ reserved_by: string | null; done: boolean }>(
    db,
    sql`SELECT (SELECT qr.holder_label FROM queue_reservations qr WHERE qr.queue_id = qi.queue_id AND qr.task_id = qi.task_id AND qr.expires_at > now()) AS reserved_by,
               ${DONE} AS done
        FROM queue_items qi WHERE qi.queue_id = ${queueId} AND qi.task_id = ${taskId}`,
  );
  return row ? { reservedBy: row.reserved_by, done: Boolean(row.done) } : null;
}

/** Texts of blobs by hash, for a member's step; a binary blob comes back without its content. */
export async function getStepTexts(db: Db, hashes: string[]): Promise<Map<string, { binary: boolean; content: string }>> {
  const unique = [...new Set(hashes)];
  if (unique.length === 0) return new Map();
  const rows = await execRows<{ hash: string; binary: boolean; content: string | null }>(
    db,
    sql`SELECT hash, encoding <> 'utf8' AS binary, CASE WHEN encoding = 'utf8' THEN content END AS content
        FROM blobs WHERE hash = ANY (${`{${unique.join(",")}}`}::text[])`,
    { prepared: true },
  );
  return new Map(rows.map((r) => [r.hash, { binary: Boolean(r.binary), content: r.content ?? "" }]));
}

type FileListItem = { path: string; size: number; hash: string };

type MemberTaskRow = {
  reserved_by: string | null;
  done: boolean;
  task: Omit<TaskDetailJson, "last_review" | "evals" | "created_at"> & {
    created_at: string | null;
    evals: { model: string; k: number; n: number; successes: number; mean_reward: number | null }[];
  };
  last_review: (Omit<ReviewJson, "at"> & { at: string }) | null;
  instruction: { encoding: string; content: string } | null;
  parent_files: FileListItem[] | null;
};

/** What the review screen shows of a member besides its trials and step, from one query. */
export interface MemberTask {
  reservedBy: string | null;
  done: boolean;
  task: TaskDetailJson;
  /** instruction.md as stored (text or base64), or null when the task has none */
  instruction: { encoding: string; content: string } | null;
  /** the parent's file list (as `task.files`), or null for a seed */
  parentFiles: FileListItem[] | null;
}

/**
 * A member's state and its task's detail as `getTask` (db/queries/tasks.ts) answers it, with its
 * last review (as `listReviews`), its instruction and its parent's file list: one round trip, and
 * not the columns the screen never shows (the search vector). Null when the task is not a member.
 */
export async function getMemberTask(db: Db, queueId: number, taskId: number): Promise<MemberTask | null> {
  const [row] = await execRows<MemberTaskRow>(
    db,
    sql`SELECT
          (SELECT qr.holder_label FROM queue_reservations qr WHERE qr.queue_id = qi.queue_id AND qr.task_id = qi.task_id AND qr.expires_at > now()) AS reserved_by,
          ${DONE} AS done,
          json_build_object(
            'id', t.id, 'task_id', t.ext_id, 'run', r.name, 'parent_id', t.parent_id, 'round', t.round, 'status', t.status,
            'rejection_reason', t.rejection_reason, 'operator', t.operator, 'category', t.category, 'review', t.review_state,
            'solution_lines', t.solution_lines, 'commands', t.commands, 'distinct_tools', t.distinct_tools,
            'instruction_words', t.instruction_words, 'verifier_tests', t.verifier_tests, 'pass_at_k', t.pass_at_k,
            'mean_reward', t.mean_reward, 'open_flags', t.open_flags,
            'name', t.name, 'declared_difficulty', t.declared_difficulty, 'repair_attempts', t.repair_attempts,
            'created_at', t.created_at, 'content_hash', t.content_hash, 'version', t.version, 'depth', t.depth,
            'root_id', t.root_id, 'verifier_asserts', t.verifier_asserts, 'pass_at_1', t.pass_at_1, 'metadata', t.metadata,
            'parent', (SELECT json_build_object('id', p.id, 'task_id', p.ext_id, 'round', p.round, 'status', p.status, 'operator', p.operator)
                       FROM tasks p WHERE p.id = t.parent_id),
            'lineage_inferred', t.lineage_inferred,
            'children', coalesce((SELECT json_agg(json_build_object('id', c.id, 'task_id', c.ext_id, 'round', c.round, 'status', c.status, 'operator', c.operator) ORDER BY c.ext_id)
                       FROM tasks c WHERE c.parent_id = t.id), '[]'::json),
            'files', coalesce((SELECT json_agg(json_build_object('path', f.path, 'size', f.size, 'hash', f.blob_hash) ORDER BY f.path)
                       FROM task_files f WHERE f.task_id = t.id), '[]'::json),
            'evals', coalesce((SELECT json_agg(json_build_object('model', e.model, 'k', e.k, 'n', e.n, 'successes', e.successes, 'mean_reward', e.mean_reward) ORDER BY e.model)
                       FROM evals e WHERE e.task_id = t.id), '[]'::json),
            'trial_count', (SELECT count(*)::int FROM trials tr WHERE tr.task_id = t.id)
          ) AS task,
          (SELECT json_build_object('id', rv.id, 'task_id', rv.task_id, 'decision', rv.decision, 'reason', rv.reason, 'note', rv.note,
                    'by', coalesce(u.email, rv.actor_label),
                    'at', rv.created_at, 'base_version', rv.base_version, 'content_hash', rv.content_hash)
           FROM reviews rv LEFT JOIN users u ON u.id = rv.user_id WHERE rv.task_id = t.id ORDER BY rv.id DESC LIMIT 1) AS last_review,
          (SELECT json_build_object('encoding', b.encoding, 'content', b.content)
           FROM task_files f JOIN blobs b ON b.hash = f.blob_hash WHERE f.task_id = t.id AND f.path = ${INSTRUCTION_FILE}) AS instruction,
          CASE WHEN t.parent_id IS NOT NULL THEN
            coalesce((SELECT json_agg(json_build_object('path', f.path, 'size', f.size, 'hash', f.blob_hash) ORDER BY f.path)
                      FROM task_files f WHERE f.task_id = t.parent_id), '[]'::json) END AS parent_files
        FROM queue_items qi JOIN tasks t ON t.id = qi.task_id JOIN runs r ON r.id = t.run_id
        WHERE qi.queue_id = ${queueId} AND qi.task_id = ${taskId}`,
    { prepared: true },
  );
  if (!row) return null;
  const t = row.task;
  const last = row.last_review;
  return {
    reservedBy: row.reserved_by,
    done: Boolean(row.done),
    task: {
      ...t,
      created_at: t.created_at === null ? null : new Date(t.created_at).toISOString(),
      evals: t.evals.map((e) => ({ ...e, pass_at_k: passAtK(e.n, e.successes, e.k) })),
      last_review: last ? { ...last, at: new Date(last.at).toISOString() } : null,
    },
    instruction: row.instruction,
    parentFiles: row.parent_files,
  };
}
