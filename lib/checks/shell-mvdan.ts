// Server only: the same reading as ./shell.ts, from mvdan-sh's syntax tree, for the scripts
// tree-sitter-bash misreads (a syntax error, or lines glued into one command). mvdan-sh parses
// bash as bash does. Its JavaScript API externalizes the whole subtree on every field read
// (≈ 0.2 ms a field, 11 ms for a file's statement list; its own Walk costs ≈ 40 ms a script), so
// the tree is read through GopherJS's internal objects (`__internal_object__`): plain fields,
// slices as {$array, $offset, $length}, types as `constructor.string` ("*syntax.CallExpr").
// That layout is GopherJS's, checked on entry: if it is not there, the reading gives up and the
// caller keeps saying nothing.
import { createRequire } from "node:module";
import type { Reader, Span, Word } from "./shell";

interface MvSyntax {
  NewParser(...options: unknown[]): { Parse(source: string, name: string): unknown };
}

/** A GopherJS value: a pointer to a struct, a slice, an interface holding either, or nil. */
type Go = Record<string, unknown> & { constructor?: { string?: unknown; nil?: unknown } };

let loaded: MvSyntax | undefined;

function syntax(): MvSyntax {
  if (loaded) return loaded;
  const module: unknown = createRequire(import.meta.url)("mvdan-sh");
  const candidate = (module as { syntax?: MvSyntax } | null)?.syntax;
  if (typeof candidate?.NewParser !== "function") throw new Error("mvdan-sh does not expose syntax.NewParser");
  loaded = candidate;
  return candidate;
}

const isNil = (x: unknown): boolean => {
  if (x === null || x === undefined || typeof x !== "object") return true;
  const c = (x as Go).constructor;
  return !c || typeof c.string !== "string" || x === c.nil;
};
const typeOf = (x: unknown): string => (isNil(x) ? "" : String((x as Go).constructor?.string ?? "").replace(/^\*syntax\./, ""));
const get = (x: unknown, name: string): unknown => (isNil(x) ? undefined : (x as Go)[name]);
const node = (x: unknown, name: string): Go | null => {
  const v = get(x, name);
  return isNil(v) ? null : (v as Go);
};
function items(x: unknown, name: string): Go[] {
  const s = get(x, name) as { $array?: unknown[]; $offset?: number; $length?: number } | undefined;
  if (!s || !Array.isArray(s.$array)) return [];
  const out: Go[] = [];
  const offset = s.$offset ?? 0;
  for (let i = 0; i < (s.$length ?? 0); i++) {
    const v = s.$array[offset + i];
    if (!isNil(v)) out.push(v as Go);
  }
  return out;
}
const str = (x: unknown, name: string): string | null => {
  const v = get(x, name);
  return typeof v === "string" ? v : null;
};
/** 0-based row of a Pos ({offs, lineCol}: the line above 14 bits of column). */
const rowOfPos = (pos: unknown): number | null => {
  const lc = get(pos, "lineCol");
  return typeof lc === "number" && lc > 0 ? (lc >>> 14) - 1 : null;
};
const colOfPos = (pos: unknown): number | null => {
  const lc = get(pos, "lineCol");
  return typeof lc === "number" && lc > 0 ? (lc & 0x3fff) - 1 : null;
};
const unescape = (value: string): string => value.replace(/\\(.)/gs, "$1");

class MvReader {
  constructor(
    private readonly reader: Reader,
    private readonly lines: readonly string[],
  ) {}

  word(word: Go | null): Word {
    if (!word) return null;
    let out = "";
    for (const part of items(word, "Parts")) {
      const v = this.part(part);
      if (v === null) return null;
      out += v;
    }
    return out;
  }

  private part(part: Go): Word {
    switch (typeOf(part)) {
      case "Lit":
        return unescape(str(part, "Value") ?? "");
      case "SglQuoted":
        return get(part, "Dollar") ? null : str(part, "Value");
      case "DblQuoted": {
        let out = "";
        for (const p of items(part, "Parts")) {
          const v = typeOf(p) === "Lit" ? (str(p, "Value") ?? "").replace(/\\([\\"$`])/g, "$1") : this.part(p);
          if (v === null) return null;
          out += v;
        }
        return out;
      }
      case "ParamExp": {
        // Only a plain $NAME or ${NAME}: any operator makes the value unknowable here.
        if (get(part, "Excl") || get(part, "Length") || get(part, "Width") || get(part, "Names")) return null;
        for (const f of ["Index", "Slice", "Repl", "Exp"]) if (!isNil(get(part, f))) return null;
        const name = str(node(part, "Param"), "Value");
        return name === null ? null : this.reader.getVar(name);
      }
      case "CmdSubst":
        // Its commands run too (tree-sitter's reading sees them as well); its value is unknown.
        this.stmts(items(part, "Stmts"), false);
        return null;
      default:
        return null;
    }
  }

  /** 0-based row where a word starts. */
  private wordRow(word: Go | null, fallback: number): number {
    const first = items(word, "Parts")[0];
    for (const f of ["ValuePos", "Left", "Dollar", "Position"]) {
      const r = rowOfPos(get(first, f));
      if (r !== null) return r;
    }
    return fallback;
  }

  stmts(list: readonly Go[], top: boolean): void {
    for (const s of list) this.stmt(s, top);
  }

  private stmt(stmt: Go, top: boolean): void {
    const startRow = rowOfPos(get(stmt, "Position")) ?? 0;
    const cmd = node(stmt, "Cmd");
    const redirs = items(stmt, "Redirs");
    // The span runs to the last word read: enough to tell whether a line of it is new.
    const span: Span = { startRow, endRow: startRow };
    const here = top && !get(stmt, "Background");
    if (cmd) this.command(cmd, here, span);
    for (const r of redirs) {
      const opPos = get(r, "OpPos");
      const row = rowOfPos(opPos) ?? startRow;
      const col = colOfPos(opPos) ?? 0;
      const op = /^(&>>|&>|>>|>\||>&|>)/.exec((this.lines[row] ?? "").slice(col))?.[1] ?? "";
      const target = node(r, "Word");
      const targetRow = this.wordRow(target, row);
      span.endRow = Math.max(span.endRow, targetRow);
      this.reader.redirectTo(op, this.word(target), targetRow, span, here);
    }
  }

  private command(cmd: Go, top: boolean, span: Span): void {
    switch (typeOf(cmd)) {
      case "CallExpr": {
        for (const a of items(cmd, "Assigns")) this.assign(a);
        const args = items(cmd, "Args");
        if (args.length === 0) return;
        const rows = args.map((w) => this.wordRow(w, span.startRow));
        span.endRow = Math.max(span.endRow, ...rows);
        this.reader.simpleCommand(args.map((w) => this.word(w)), rows, span, top);
        return;
      }
      case "DeclClause":
        for (const a of items(cmd, "Args")) this.assign(a);
        return;
      case "BinaryCmd": {
        // `a && b` stays at the top; the sides of a pipe run in subshells.
        const opPos = get(cmd, "OpPos");
        const rest = (this.lines[rowOfPos(opPos) ?? 0] ?? "").slice(colOfPos(opPos) ?? 0);
        const pipe = rest.startsWith("|") && !rest.startsWith("||");
        const x = node(cmd, "X");
        const y = node(cmd, "Y");
        if (x) this.stmt(x, top && !pipe);
        if (y) this.stmt(y, top && !pipe);
        return;
      }
      case "Block":
        this.stmts(items(cmd, "Stmts"), top);
        return;
      case "Subshell":
        this.stmts(items(cmd, "Stmts"), false);
        return;
      case "IfClause": {
        let clause: Go | null = cmd;
        while (clause) {
          this.stmts(items(clause, "Cond"), false);
          this.stmts(items(clause, "Then"), false);
          clause = node(clause, "Else");
        }
        return;
      }
      case "WhileClause":
        this.stmts(items(cmd, "Cond"), false);
        this.stmts(items(cmd, "Do"), false);
        return;
      case "ForClause": {
        const name = str(node(node(cmd, "Loop"), "Name"), "Value");
        if (name) this.reader.setVar(name, null);
        this.stmts(items(cmd, "Do"), false);
        return;
      }
      case "CaseClause":
        for (const item of items(cmd, "Items")) this.stmts(items(item, "Stmts"), false);
        return;
      case "FuncDecl": {
        const body = node(cmd, "Body");
        if (body) this.stmt(body, false);
        return;
      }
      case "TimeClause":
      case "CoprocClause": {
        const inner = node(cmd, "Stmt");
        if (inner) this.stmt(inner, false);
        return;
      }
      default:
        return;
    }
  }

  private assign(a: Go): void {
    const name = str(node(a, "Name"), "Value");
    if (!name || get(a, "Naked") === true) return;
    const value = node(a, "Value");
    this.reader.setVar(name, value ? this.word(value) : isNil(get(a, "Array")) ? "" : null);
  }
}

/** Feeds `reader` from mvdan-sh's reading; false when mvdan-sh rejects the script too. */
export function readWithMvdan(source: string, reader: Reader, lines: readonly string[]): boolean {
  const mv = syntax();
  let file: unknown;
  try {
    file = mv.NewParser().Parse(source, "solve.sh");
  } catch {
    return false;
  }
  const internal = get(file, "__internal_object__") ?? (file as Go | null)?.__internal_object__;
  if (isNil(internal) || typeOf(internal) !== "File") return false;
  new MvReader(reader, lines).stmts(items(internal, "Stmts"), true);
  return true;
}
