// Server only (highlighting): the diff page's payload, the whole-file diff of each path with both
// sides highlighted.
import { highlightCode } from "@/lib/text/highlight";
import { languageForPath, languageLabel } from "@/lib/text/language";
import type { CodeLine } from "@/lib/text/tones";
import { diffFiles, type TaskFiles } from "./files";
import type { DiffFilePayload, DiffRowTuple } from "./payload-types";

const own = (files: TaskFiles, path: string) => (Object.hasOwn(files, path) ? files[path] : undefined);

const langOf = (path: string, text: string) => languageForPath(path, text.slice(0, 200).split("\n")[0]);

/** Both sides' lines; each side may reuse the other's tokens for the lines they start with. */
async function sides(path: string, oldText: string | undefined, newText: string | undefined): Promise<[CodeLine[], CodeLine[]]> {
  // One at a time: the second side finds the first in the highlighter's cache.
  const old = oldText === undefined ? [] : (await highlightCode(oldText, langOf(path, oldText), { base: newText })).lines;
  const next = newText === undefined ? [] : (await highlightCode(newText, langOf(path, newText), { base: oldText })).lines;
  return [old, next];
}

export async function buildDiffPayload(from: TaskFiles, to: TaskFiles, binary: ReadonlySet<string>): Promise<DiffFilePayload[]> {
  const { files } = diffFiles(from, to, { context: Infinity });
  const out: DiffFilePayload[] = [];
  for (const [index, f] of files.entries()) {
    const oldText = own(from, f.path);
    const newText = own(to, f.path);
    const rows: DiffRowTuple[] = [];
    for (const h of f.hunks) {
      for (const l of h.lines) rows.push([l.op === "ctx" ? 0 : l.op === "del" ? 1 : 2, l.old_no ?? 0, l.new_no ?? 0, l.eol === "crlf" ? 1 : l.eol === "none" ? 2 : 0]);
    }
    const [oldTokens, newTokens] = f.status === "unchanged" ? [[], []] : await sides(f.path, oldText, newText);
    // Unchanged lines are drawn from the new side: of the old one only deleted lines travel.
    const deleted = new Set(rows.flatMap(([op, oldNo]) => (op === 1 ? [oldNo] : [])));
    const oldShown = oldTokens.map((line, i): CodeLine => (deleted.has(i + 1) ? line : []));
    out.push({
      index,
      path: f.path,
      status: f.status,
      added: f.added,
      removed: f.removed,
      oldLineCount: f.old_line_count,
      newLineCount: f.new_line_count,
      language: languageLabel(langOf(f.path, newText ?? oldText ?? "")),
      binary: binary.has(f.path),
      coarse: f.coarse === true,
      rows,
      old: oldShown,
      new: newTokens,
    });
  }
  return out;
}
