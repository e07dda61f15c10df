// Server only: which files and directories a solution script creates, read with tree-sitter-bash.
// Targets of output redirections, and the operands of the common tools that make files (touch,
// mkdir, install, cp, mv, ln, tee, tar, zip, sqlite3, git init/clone, openssl, ssh-keygen, curl,
// wget, dd, compilers' -o, …), with variables assigned a literal value (`DIR=/opt/app`) and a
// top-level `cd` resolved. A word that depends on anything else (`$(…)`, a loop variable) is left
// out: the reading never guesses a path.
import { normalizeSource } from "@/lib/metrics/source";
import { readRepairingGlue } from "@/lib/metrics/shell-glue";
import { Lru } from "@/lib/rounds/lru";
import { addInto, CommandWords } from "./shell-command";
import { pythonWrites } from "./python-writes";
import { readWithMvdan } from "./shell-mvdan";
import { readShellTree } from "./shell-tree";

export interface ShellArtifact {
  /** absolute, normalised (no trailing slash, no `/./`) */
  path: string;
  /** the command that creates it: `>`, `touch`, `cp`, … */
  via: string;
  /** 1-based line of the word naming it */
  line: number;
  /** 1-based line span of the whole command */
  startLine: number;
  endLine: number;
  excerpt: string;
}

export interface ShellAnalysis {
  artifacts: ShellArtifact[];
  /** paths the script deletes or moves away afterwards (intermediates), with the line */
  removed: { path: string; line: number }[];
  /** neither parser could read the script cleanly: the reading is incomplete */
  hasError: boolean;
  parser?: "tree-sitter" | "mvdan-sh";
}

export type Word = string | null;

/** 0-based rows of a whole command. */
export interface Span {
  startRow: number;
  endRow: number;
}


/** Normalises an absolute path; relative ones are resolved against `cwd` when it is known. */
export function normalisePath(p: string, cwd: string | null): string | null {
  let path = p;
  if (!path.startsWith("/")) {
    if (cwd === null || path.startsWith("~") || path === "" || path.startsWith("-")) return null;
    path = `${cwd}/${path}`;
  }
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Scratch and device locations: what a solution writes there is not an artifact of the task. */
export function isScratch(p: string): boolean {
  return /^\/(?:dev|proc|sys|tmp|var\/tmp|run)(?:\/|$)/.test(p) || p === "/";
}

export class Reader {
  private vars = new Map<string, string | null>();
  private cwd: string | null;
  readonly artifacts: ShellArtifact[] = [];
  readonly removed: { path: string; line: number }[] = [];
  constructor(
    private readonly lines: readonly string[],
    workdir: string | null,
  ) {
    this.cwd = workdir;
  }

  add(raw: Word, via: string, row: number, span: Span, top: boolean): void {
    if (raw === null) return;
    const path = normalisePath(raw, top ? this.cwd : null);
    if (path === null || isScratch(path) || /\s/.test(path)) return;
    this.artifacts.push({
      path,
      via,
      line: row + 1,
      startLine: span.startRow + 1,
      endLine: span.endRow + 1,
      excerpt: (this.lines[row] ?? "").trim().slice(0, 200),
    });
  }

  private remove(raw: Word, row: number): void {
    if (raw === null) return;
    const path = normalisePath(raw, null);
    if (path !== null) this.removed.push({ path, line: row + 1 });
  }

  /** `NAME=value`, from either parser: null when the value is not literal. */
  setVar(name: string, value: Word): void {
    this.vars.set(name, value);
  }

  getVar(name: string): Word {
    return this.vars.get(name) ?? null;
  }

  redirectTo(op: string, target: Word, row: number, span: Span, top: boolean): void {
    if (![">", ">>", "&>", "&>>", ">|", ">&"].includes(op)) return;
    if (op === ">&" && target !== null && /^\d+$|^-$/.test(target)) return;
    this.add(target, op, row, span, top);
  }

  /** One simple command, its name first, from either parser. */
  simpleCommand(allWords: readonly Word[], allRows: readonly number[], span: Span, top: boolean): void {
    let name = allWords[0] ?? null;
    let words = allWords.slice(1);
    let rows = allRows.slice(1);
    // sudo/env/nohup/time wrap the command that does the work.
    while (name !== null && ["sudo", "env", "nohup", "time", "command", "exec"].includes(name) && words.length > 0) {
      let i = 0;
      while (i < words.length && /^-|=/.test(words[i] ?? "")) i++;
      if (i >= words.length) return;
      name = words[i] ?? null;
      words = words.slice(i + 1);
      rows = rows.slice(i + 1);
    }
    if (name === null) return;
    const tool = name.split("/").pop() ?? name;
    const c = new CommandWords(this, words, rows, span, top, tool);
    switch (tool) {
      case "cd": {
        const target = words[0];
        if (top) this.cwd = target === null || target === undefined ? null : normalisePath(target, this.cwd);
        return;
      }
      case "touch":
      case "mkfifo":
        for (const i of c.operands("d,r,t,m")) c.add(i);
        return;
      case "mkdir":
        // A directory on its own is a place, not an artifact: what goes in it is.
        return;
      case "tee":
        for (const i of c.operands()) c.add(i);
        return;
      case "install": {
        const ops = c.operands("m,mode,o,owner,g,group,t,target-directory,S,suffix");
        const target = c.optionValue("-t", "--target-directory");
        if (c.has("-d", "--directory")) return;
        if (target.length > 0) for (const t of target) for (const i of ops) addInto(this, words, c.rowOf(t), t, i, tool, span, top);
        else if (ops.length >= 2) c.add(ops[ops.length - 1] ?? -1);
        return;
      }
      case "cp":
      case "mv":
      case "ln":
      case "rsync": {
        const ops = c.operands("t,target-directory,S,suffix,e,rsh,chown,chmod");
        const target = c.optionValue("-t", "--target-directory");
        const sources = target.length > 0 ? ops : ops.slice(0, -1);
        if (target.length > 0) for (const t of target) for (const i of ops) addInto(this, words, c.rowOf(t), t, i, tool, span, top);
        else if (ops.length >= 2) c.add(ops[ops.length - 1] ?? -1);
        if (tool === "mv") for (const i of sources) this.remove(words[i] ?? null, c.rowOf(i));
        return;
      }
      case "rm":
      case "rmdir":
      case "unlink":
        for (const i of c.operands()) this.remove(words[i] ?? null, c.rowOf(i));
        return;
      case "tar": {
        const first = words[0] ?? "";
        const create = /^-?[A-Za-z]*c/.test(first) || c.has("--create", "-c");
        const extract = /^-?[A-Za-z]*x/.test(first) || c.has("--extract", "-x");
        if (create) {
          const f = c.optionValue("-f", "--file");
          if (f.length > 0) for (const i of f) c.add(i);
          else if (first && /^-?[A-Za-z]*f$/.test(first)) c.add(1);
          else {
            // -czf NAME: the value follows the cluster ending in f
            const at = words.findIndex((w) => w !== null && /^-[A-Za-z]*f$/.test(w));
            if (at >= 0) c.add(at + 1);
          }
        } else if (extract) for (const i of c.optionValue("-C", "--directory")) c.add(i);
        return;
      }
      case "zip": {
        const ops = c.operands("b,n,t,tt,x,i");
        const archive = ops[0];
        if (archive !== undefined) {
          const w = words[archive];
          c.add(archive, tool, w && !/\.[A-Za-z0-9]+$/.test(w) ? ".zip" : "");
        }
        return;
      }
      case "gzip":
      case "bzip2":
      case "xz":
        if (c.has("-d", "-c", "-t", "-l", "--decompress", "--stdout", "--test", "--list")) return;
        for (const i of c.operands("S,suffix")) c.add(i, tool, tool === "gzip" ? ".gz" : tool === "bzip2" ? ".bz2" : ".xz");
        return;
      case "unzip":
        for (const i of c.optionValue("-d")) c.add(i);
        return;
      case "sqlite3": {
        const ops = c.operands("cmd,init,separator,nullvalue,newline,A,escape");
        if (ops[0] !== undefined) c.add(ops[0]);
        return;
      }
      case "git": {
        const sub = words.findIndex((w) => w === "init" || w === "clone");
        if (sub < 0) return;
        const valued = new Set(["-b", "--initial-branch", "--template", "--separate-git-dir", "--object-format", "--branch", "--depth", "-o", "--origin", "--reference", "-c", "--config", "-u", "--upload-pack", "--shallow-since", "--filter"]);
        const rest: { w: Word; i: number }[] = [];
        for (let i = sub + 1; i < words.length; i++) {
          const w = words[i] ?? null;
          if (w !== null && valued.has(w)) i++;
          else if (w === null || !w.startsWith("-")) rest.push({ w, i });
        }
        const target = words[sub] === "init" ? rest[0] : rest[1];
        if (target) c.add(target.i);
        return;
      }
      case "ssh-keygen":
        for (const i of c.optionValue("-f")) {
          c.add(i);
          c.add(i, tool, ".pub");
        }
        return;
      case "dd":
        words.forEach((w, i) => {
          if (w?.startsWith("of=")) this.add(w.slice(3), tool, c.rowOf(i), span, top);
        });
        return;
      case "htpasswd":
        if (c.has("-c")) {
          const ops = c.operands("C");
          if (ops[0] !== undefined) c.add(ops[0]);
        }
        return;
      case "gcc":
      case "cc":
      case "g++":
      case "c++":
      case "clang":
      case "clang++":
      case "rustc":
      case "go":
      case "sort":
      case "curl":
      case "pandoc":
      case "pg_dump":
      case "mysqldump":
      case "jar":
      case "gpg":
        for (const i of c.optionValue("-o", "--output")) c.add(i);
        return;
      case "openssl":
        for (const i of c.optionValue("-out", "-keyout")) c.add(i);
        return;
      case "wget":
        for (const i of c.optionValue("-O", "--output-document")) c.add(i);
        return;
      default:
        if (tool.startsWith("python") && words[0] === "-m" && words[1] === "venv") {
          const ops = c.operands().filter((i) => i > 1);
          if (ops[0] !== undefined) c.add(ops[0]);
        }
    }
  }
}

/**
 * The tree-sitter reading, with glued lines repaired (lib/metrics/shell-glue); the reader keeps the
 * original lines for its evidence. A repaired text that still reads with an error or a glue is
 * left to mvdan-sh.
 */
function readRepairing(text: string, lines: readonly string[], workdir: string | null): Promise<ShellAnalysis & { gluedAt: number | null }> {
  return readRepairingGlue(text, (tree) => readShellTree(tree, new Reader(lines, workdir), lines));
}

const cache = new Lru<string, ShellAnalysis>(2048);
/** The readings of scripts a solution writes, by their text: a child task's solution writes its
 * parent's helper scripts word for word, and each would be parsed and read again. */
const writtenScripts = new Lru<string, ShellAnalysis>(4096);

/** Reads a solution script; `key` (blob hash plus workdir) caches the reading. */
export async function analyseShell(source: string, opts: { key?: string; workdir?: string | null; depth?: number } = {}): Promise<ShellAnalysis> {
  const key = opts.key === undefined ? undefined : `${opts.key}:${opts.workdir ?? ""}`;
  const hit = key ? cache.get(key) : undefined;
  if (hit) return hit;
  const text = normalizeSource(source);
  const lines = text.split("\n");
  const { gluedAt: _glue, ...read } = await readRepairing(text, lines, opts.workdir ?? null);
  let result: ShellAnalysis = read;
  if (result.hasError) {
    // tree-sitter misread the script: mvdan-sh, slower but exact, reads it again.
    const reader = new Reader(lines, opts.workdir ?? null);
    if (readWithMvdan(text, reader, lines)) result = { artifacts: reader.artifacts, removed: reader.removed, hasError: false, parser: "mvdan-sh" };
  }
  // A script the solution writes with a heredoc (`cat > /usr/local/bin/x <<'EOF'` + `#!/bin/sh`)
  // runs later, by the solution or by cron: what it creates is the step's work too. So is what a
  // Python program fed to the interpreter (`python3 - <<'PY'`) or written as a script writes.
  if (!result.hasError && (opts.depth ?? 0) === 0) {
    for (const body of programHeredocs(lines)) {
      let inner = writtenScripts.get(`${body.language}:${body.text}`);
      if (!inner) {
        inner = body.language === "sh" ? await analyseShell(body.text, { depth: 1 }) : await analysePython(body.text);
        writtenScripts.set(`${body.language}:${body.text}`, inner);
      }
      if (inner.hasError) continue;
      const shift = (n: number) => n + body.startRow;
      const where = body.language === "sh" ? "in a script it writes" : "in a Python program it runs";
      result = {
        ...result,
        artifacts: [...result.artifacts, ...inner.artifacts.map((a) => ({ ...a, via: `${a.via} (${where})`, line: shift(a.line), startLine: shift(a.startLine), endLine: shift(a.endLine) }))],
        removed: [...result.removed, ...inner.removed.map((r) => ({ ...r, line: shift(r.line) }))],
      };
    }
  }
  if (key) cache.set(key, result);
  return result;
}

/** What a Python program writes, as artifacts with 1-based lines relative to its first row. */
async function analysePython(text: string): Promise<ShellAnalysis> {
  const writes = await pythonWrites(text);
  const lines = text.split("\n");
  if (writes === null) return { artifacts: [], removed: [], hasError: true };
  const artifacts: ShellArtifact[] = [];
  for (const w of writes) {
    const path = normalisePath(w.path, null);
    if (path === null || isScratch(path) || /\s/.test(path)) continue;
    artifacts.push({ path, via: w.via, line: w.row + 1, startLine: w.startRow + 1, endLine: w.endRow + 1, excerpt: (lines[w.row] ?? "").trim().slice(0, 200) });
  }
  return { artifacts, removed: [], hasError: false };
}

const PYTHON = /\bpython(?:3(?:\.\d+)?)?\b/;

/** Heredoc bodies that are programs, with their 0-based first row: shell scripts (a `#!…sh` first
 * line) and Python, fed to the interpreter on the heredoc's line or written with a `#!…python`
 * first line. */
export function programHeredocs(lines: readonly string[]): { startRow: number; text: string; language: "sh" | "python" }[] {
  const out: { startRow: number; text: string; language: "sh" | "python" }[] = [];
  for (let row = 0; row < lines.length; row++) {
    const line = lines[row] ?? "";
    const m = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(line);
    if (!m?.[3]) continue;
    const strip = m[1] === "-";
    let end = row + 1;
    while (end < lines.length && (strip ? (lines[end] ?? "").replace(/^\t+/, "") : lines[end]) !== m[3]) end++;
    if (end >= lines.length) continue;
    const body = lines.slice(row + 1, end);
    const first = body[0] ?? "";
    const text = body.join("\n");
    if (/^#!\S*\b(?:ba|da|z|k)?sh\b/.test(first)) out.push({ startRow: row + 1, text, language: "sh" });
    else if (/^#!.*\bpython/.test(first) || PYTHON.test(line.slice(0, m.index))) out.push({ startRow: row + 1, text, language: "python" });
    row = end;
  }
  return out;
}
