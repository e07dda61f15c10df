// The files of one JSONL interchange line (FORMATS.md §6) turned back into bytes, in a reader
// thread: every path checked, every byte as exported, every hash the line carries verified.
import { sha256 } from "./content";
import type { IssueList } from "./errors";
import { MAX_FILE_BYTES, MAX_FILES_PER_DIR_TREE, type TreeFile } from "./walk";

export interface InlineTask {
  /** where issues are reported: the JSONL file and the task's line */
  file: string;
  line: number;
  /** how issues inside the task's files name them (`export.jsonl:12 t-1`, then `/task.toml`) */
  display: string;
  /** `files`: path → UTF-8 text */
  text: Record<string, string>;
  /** `files_base64`: path → the bytes of a file that is not UTF-8 */
  base64: Record<string, string>;
  /** `sha256`: path → hex digest, when the line carries it (our exports do) */
  sha256: Record<string, string> | null;
}

const MAX_PATH_SEGMENTS = 32;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Why `p` cannot be a file path inside a task, or null when it can: relative, `/`-separated, no
 * `.`/`..`/empty segments, no backslash or control characters (an export writes it into a tar). */
export function unsafeTaskPath(p: string): string | null {
  if (p === "") return "is empty";
  const parts = p.split("/");
  if (parts.length > MAX_PATH_SEGMENTS) return `is deeper than ${MAX_PATH_SEGMENTS} levels`;
  for (const part of parts) {
    if (part === "" || part === "." || part === "..") return "must be a relative path without empty, `.` or `..` parts";
    if (/[\\\u0000-\u001f\u007f]/.test(part)) return "holds a backslash or a control character";
    if (Buffer.byteLength(part) > 255) return "has a part longer than 255 bytes";
  }
  return null;
}

/** Orders paths the way a directory walk (lib/ingest/walk.ts) lists them: part by part. */
export function byParts(a: TreeFile, b: TreeFile): number {
  const x = a.rel.split("/");
  const y = b.rel.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] as string;
    const q = y[i] as string;
    if (p !== q) return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** The task's files with their bytes, in directory-walk order; bad entries are issues. */
export function inlineTaskFiles(task: InlineTask, issues: IssueList): TreeFile[] {
  const out: TreeFile[] = [];
  const bad = (message: string) => issues.add(task.file, message, task.line);
  const add = (key: "files" | "files_base64", rel: string, bytes: Buffer) => {
    const why = unsafeTaskPath(rel);
    if (why) return bad(`${key}: ${JSON.stringify(rel)} ${why}`);
    if (bytes.length > MAX_FILE_BYTES) return bad(`${key}: ${rel} is ${bytes.length} bytes, over the ${MAX_FILE_BYTES}-byte limit`);
    out.push({ rel, bytes });
  };
  for (const [rel, text] of Object.entries(task.text)) add("files", rel, Buffer.from(text, "utf8"));
  for (const [rel, b64] of Object.entries(task.base64)) {
    if (Object.hasOwn(task.text, rel)) bad(`files_base64: ${rel} is in files too`);
    else if (!BASE64.test(b64)) bad(`files_base64: ${rel} is not base64`);
    else add("files_base64", rel, Buffer.from(b64, "base64"));
  }
  if (out.length > MAX_FILES_PER_DIR_TREE) {
    bad(`more than ${MAX_FILES_PER_DIR_TREE} files`);
    return [];
  }
  if (task.sha256) {
    const seen = new Set<string>();
    for (const f of out) {
      seen.add(f.rel);
      const expected = task.sha256[f.rel];
      if (expected === undefined) bad(`sha256: no hash for ${f.rel}`);
      else if (expected !== sha256(f.bytes)) bad(`sha256: ${f.rel} does not match its hash (the file was changed or re-encoded)`);
    }
    for (const rel of Object.keys(task.sha256)) if (!seen.has(rel) && unsafeTaskPath(rel) === null) bad(`sha256: ${rel} is not among the files`);
  }
  return out.sort(byParts);
}
