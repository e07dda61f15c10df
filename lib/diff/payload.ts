// Server only (highlighting): the diff page's payload, the whole-file diff of each path with both
// sides highlighted (of the old side only what the view shows: its deleted lines).
import { highlightCode, highlightSides } from "@/lib/text/highlight";
import { languageForPath, languageLabel } from "@/lib/text/language";
import type { CodeLine } from "@/lib/text/tones";
import { diffFiles, type TaskFiles } from "./files";
import type { DiffFilePayload, DiffRowTuple } from "./payload-types";

const own = (files: TaskFiles, path: string) => (Object.hasOwn(files, path) ? files[path] : undefined);

const langOf = (path: string, text: string) => languageForPath(path, text.slice(0, 200).split("\n")[0]);

/** Highlights both sides of one file's whole-file diff (./thread can do it in another thread). */
export type FileSides = (path: string, oldText: string | undefined, newText: string | undefined, rows: readonly DiffRowTuple[]) => Promise<[CodeLine[], CodeLine[]]>;

/**
 * Both sides' lines for the rows of a whole-file diff; of the old side only deleted lines are
 * filled (unchanged lines are drawn from the new side, where they are the same).
 */
export const fileSides: FileSides = async (path, oldText, newText, rows) => {
  if (oldText === undefined) return [[], newText === undefined ? [] : (await highlightCode(newText, langOf(path, newText))).lines];
  if (newText === undefined) return [(await highlightCode(oldText, langOf(path, oldText))).lines, []];
  const lang = langOf(path, newText);
  if (langOf(path, oldText) === lang) {
    const both = await highlightSides(oldText, newText, lang, rows);
    return [both.old, both.new];
  }
  // The two versions read as different languages (a changed shebang): each side on its own.
  const deleted = new Set(rows.flatMap(([op, oldNo]) => (op === 1 ? [oldNo] : [])));
  const old = (await highlightCode(oldText, langOf(path, oldText))).lines;
  const next = (await highlightCode(newText, lang)).lines;
  return [old.map((line, i): CodeLine => (deleted.has(i + 1) ? line : [])), next];
};

/** `sides` decides where each changed file is highlighted: all of them start at once, in order. */
export async function buildDiffPayload(from: TaskFiles, to: TaskFiles, binary: ReadonlySet<string>, sides: FileSides = fileSides): Promise<DiffFilePayload[]> {
  const { files } = diffFiles(from, to, { context: Infinity });
  const prepared = files.map((f) => {
    const rows: DiffRowTuple[] = [];
    for (const h of f.hunks) {
      for (const l of h.lines) rows.push([l.op === "ctx" ? 0 : l.op === "del" ? 1 : 2, l.old_no ?? 0, l.new_no ?? 0, l.eol === "crlf" ? 1 : l.eol === "none" ? 2 : 0]);
    }
    return { f, rows, oldText: own(from, f.path), newText: own(to, f.path) };
  });
  const highlighted = await Promise.all(
    prepared.map(({ f, rows, oldText, newText }): Promise<[CodeLine[], CodeLine[]]> | [CodeLine[], CodeLine[]] =>
      f.status === "unchanged" ? [[], []] : sides(f.path, oldText, newText, rows),
    ),
  );
  return prepared.map(({ f, rows, oldText, newText }, index): DiffFilePayload => {
    const [oldShown, newTokens] = highlighted[index] ?? [[], []];
    return {
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
    };
  });
}
