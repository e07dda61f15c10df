// Server side of the diff page: the whole-file diff of each path, both sides highlighted.
import "server-only";
import type { DiffFilePayload, DiffRowTuple } from "@/components/diff/types";
import { diffFiles, type TaskFiles } from "@/lib/diff";
import { highlightCode } from "@/lib/text/highlight";
import { languageForPath, languageLabel } from "@/lib/text/language";
import type { CodeLine } from "@/lib/text/tones";

async function tokens(path: string, text: string | undefined): Promise<CodeLine[]> {
  if (text === undefined) return [];
  const lang = languageForPath(path, text.slice(0, 200).split("\n")[0]);
  return (await highlightCode(text, lang)).lines;
}

const own = (files: TaskFiles, path: string) => (Object.hasOwn(files, path) ? files[path] : undefined);

export async function buildDiffPayload(from: TaskFiles, to: TaskFiles, binary: ReadonlySet<string>): Promise<DiffFilePayload[]> {
  const { files } = diffFiles(from, to, { context: Infinity });
  return Promise.all(
    files.map(async (f, index): Promise<DiffFilePayload> => {
      const oldText = own(from, f.path);
      const newText = own(to, f.path);
      const unchanged = f.status === "unchanged";
      const rows: DiffRowTuple[] = [];
      for (const h of f.hunks) {
        for (const l of h.lines) rows.push([l.op === "ctx" ? 0 : l.op === "del" ? 1 : 2, l.old_no ?? 0, l.new_no ?? 0, l.eol === "crlf" ? 1 : l.eol === "none" ? 2 : 0]);
      }
      const [oldTokens, newTokens] = unchanged ? [[], []] : await Promise.all([tokens(f.path, oldText), tokens(f.path, newText)]);
      return {
        index,
        path: f.path,
        status: f.status,
        added: f.added,
        removed: f.removed,
        oldLineCount: f.old_line_count,
        newLineCount: f.new_line_count,
        language: languageLabel(languageForPath(f.path, (newText ?? oldText ?? "").slice(0, 200).split("\n")[0])),
        binary: binary.has(f.path),
        coarse: f.coarse === true,
        rows,
        old: oldTokens,
        new: newTokens,
      };
    }),
  );
}
