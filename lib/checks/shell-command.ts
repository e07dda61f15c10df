// What lib/checks/shell.ts's Reader asks of a simple command's words: its operands, the values of
// its options, the artifacts they name. Server only.
import type { Span, Word } from "./shell";

/** Where the artifacts a command names go (the Reader). */
export interface ArtifactSink {
  add(raw: Word, via: string, row: number, span: Span, top: boolean): void;
}

/** A simple command's words after its name, with what simpleCommand asks of them. A class, not
 * closures made for each command: the server's TypeScript loader (tsx, esbuild's keepNames) names
 * every closure it makes with Object.defineProperty, ≈ 3 % of an import's reading here. */
export class CommandWords {
  constructor(
    private readonly reader: ArtifactSink,
    private readonly words: readonly Word[],
    private readonly rows: readonly number[],
    private readonly span: Span,
    private readonly top: boolean,
    private readonly tool: string,
  ) {}

  rowOf(i: number): number {
    return this.rows[i] ?? this.span.startRow;
  }

  add(i: number, via = this.tool, suffix = ""): void {
    const w = this.words[i];
    this.reader.add(w === null || w === undefined ? null : w + suffix, via, this.rowOf(i), this.span, this.top);
  }

  /** The indices of the operands, past options (those named in `valued`, comma-separated, take the next word). */
  operands(valued = ""): number[] {
    const words = this.words;
    const out: number[] = [];
    let optionsDone = false;
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (!optionsDone && w === "--") {
        optionsDone = true;
        continue;
      }
      if (!optionsDone && w !== null && w !== undefined && w.startsWith("-") && w.length > 1) {
        const names = valued.split(",");
        const takes = w.startsWith("--") ? names.includes(w.slice(2)) : names.includes(w.slice(1)) || names.includes(w.slice(-1));
        if (!w.includes("=") && takes) i++;
        continue;
      }
      out.push(i);
    }
    return out;
  }

  /** The indices of the values of `flags` given as separate words; `--flag=value` is added here. */
  optionValue(...flags: string[]): number[] {
    const words = this.words;
    const out: number[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w === null || w === undefined) continue;
      for (const f of flags) {
        if (w === f && i + 1 < words.length) out.push(i + 1);
        else if (f.startsWith("--") && w.startsWith(`${f}=`)) {
          const v = w.slice(f.length + 1);
          this.reader.add(v, this.tool, this.rowOf(i), this.span, this.top);
        }
      }
    }
    return out;
  }

  has(...flags: string[]): boolean {
    return this.words.some((w) => w !== null && w !== undefined && flags.some((f) => (f.startsWith("--") ? w === f : w.startsWith("-") && !w.startsWith("--") && w.includes(f.slice(1)))));
  }
}

export function addInto(reader: ArtifactSink, words: readonly Word[], row: number, dirIndex: number, srcIndex: number, via: string, span: Span, top: boolean): void {
  const dir = words[dirIndex];
  const src = words[srcIndex];
  if (dir === null || dir === undefined || src === null || src === undefined) return;
  const base = src.replace(/\/+$/, "").split("/").pop();
  if (!base) return;
  reader.add(`${dir}/${base}`, via, row, span, top);
}
