// Server only: the same reading as ./shell.ts, from mvdan-sh's syntax tree, for the scripts
// tree-sitter-bash misreads (a syntax error, or lines glued into one command). mvdan-sh parses
// bash as bash does; its own Walk is slow in GopherJS (≈40 ms a script), so the statements are
// walked here by their fields, in source order, feeding the shared Reader.
import { createRequire } from "node:module";
import type { Reader, Span, Word } from "./shell";

interface MvPos {
  Line(): number;
  Col(): number;
}
interface MvNode {
  Pos(): MvPos;
  End(): MvPos;
}
interface MvSyntax {
  NewParser(...options: unknown[]): { Parse(source: string, name: string): MvNode };
  NodeType(node: MvNode): string;
}

let loaded: MvSyntax | undefined;

function syntax(): MvSyntax {
  if (loaded) return loaded;
  const module: unknown = createRequire(import.meta.url)("mvdan-sh");
  const candidate = (module as { syntax?: MvSyntax } | null)?.syntax;
  if (typeof candidate?.NewParser !== "function" || typeof candidate.NodeType !== "function") throw new Error("mvdan-sh does not expose syntax.NewParser");
  loaded = candidate;
  return candidate;
}

const field = (node: unknown, name: string): unknown => (node && typeof node === "object" ? Reflect.get(node, name) : undefined);
const list = (node: unknown, name: string): MvNode[] => {
  const v = field(node, name);
  return Array.isArray(v) ? v.filter((x): x is MvNode => x !== null && x !== undefined) : [];
};
const one = (node: unknown, name: string): MvNode | null => {
  const v = field(node, name);
  return v && typeof v === "object" ? (v as MvNode) : null;
};
const str = (node: unknown, name: string): string | null => {
  const v = field(node, name);
  return typeof v === "string" ? v : null;
};
const unescape = (value: string): string => value.replace(/\\(.)/gs, "$1");

class MvReader {
  constructor(
    private readonly mv: MvSyntax,
    private readonly reader: Reader,
    private readonly lines: readonly string[],
  ) {}

  word(word: MvNode | null): Word {
    if (!word) return null;
    let out = "";
    for (const part of list(word, "Parts")) {
      const v = this.part(part);
      if (v === null) return null;
      out += v;
    }
    return out;
  }

  private part(part: MvNode): Word {
    switch (this.mv.NodeType(part)) {
      case "Lit":
        return unescape(str(part, "Value") ?? "");
      case "SglQuoted":
        return str(part, "Value");
      case "DblQuoted": {
        let out = "";
        for (const p of list(part, "Parts")) {
          const v = this.mv.NodeType(p) === "Lit" ? (str(p, "Value") ?? "").replace(/\\([\\"$`])/g, "$1") : this.part(p);
          if (v === null) return null;
          out += v;
        }
        return out;
      }
      case "ParamExp": {
        // Only a plain $NAME or ${NAME}: any operator makes the value unknowable here.
        for (const f of ["Excl", "Length", "Width", "Index", "Slice", "Repl", "Exp", "Names"]) {
          const v = field(part, f);
          if (v !== null && v !== undefined && v !== false && v !== 0) return null;
        }
        const name = str(one(part, "Param"), "Value");
        return name === null ? null : this.reader.getVar(name);
      }
      default:
        return null;
    }
  }

  private rowOf(node: MvNode): number {
    return node.Pos().Line() - 1;
  }

  /** End() walks to the statement's last node: read only when an artifact needs it. */
  private span(node: MvNode): Span {
    let end: number | undefined;
    return {
      startRow: node.Pos().Line() - 1,
      get endRow() {
        end ??= node.End().Line() - 1;
        return end;
      },
    };
  }

  stmts(stmts: readonly MvNode[], top: boolean): void {
    for (const s of stmts) this.stmt(s, top);
  }

  private stmt(stmt: MvNode, top: boolean): void {
    const cmd = one(stmt, "Cmd");
    const span = this.span(stmt);
    if (cmd) this.command(cmd, top && !field(stmt, "Background"), span);
    for (const r of list(stmt, "Redirs")) {
      const opPos = field(r, "OpPos") as MvPos | undefined;
      const row = opPos ? opPos.Line() - 1 : span.startRow;
      const col = opPos ? opPos.Col() - 1 : 0;
      const op = /^(&>>|&>|>>|>\||>&|>)/.exec((this.lines[row] ?? "").slice(col))?.[1] ?? "";
      const target = one(r, "Word");
      this.reader.redirectTo(op, this.word(target), target ? this.rowOf(target) : row, span, top);
    }
  }

  private command(cmd: MvNode, top: boolean, span: Span): void {
    switch (this.mv.NodeType(cmd)) {
      case "CallExpr": {
        for (const a of list(cmd, "Assigns")) this.assign(a);
        const args = list(cmd, "Args");
        if (args.length > 0) this.reader.simpleCommand(args.map((w) => this.word(w)), args.map((w) => this.rowOf(w)), span, top);
        return;
      }
      case "DeclClause":
        for (const a of list(cmd, "Args")) this.assign(a);
        return;
      case "BinaryCmd": {
        const x = one(cmd, "X");
        const y = one(cmd, "Y");
        // `a && b` stays at the top; the sides of a pipe run in subshells.
        const pipe = /\|/.test(String(field(cmd, "Op") ?? "")) || this.isPipe(cmd);
        if (x) this.stmt(x, top && !pipe);
        if (y) this.stmt(y, top && !pipe);
        return;
      }
      case "Block":
        this.stmts(list(cmd, "Stmts"), top);
        return;
      case "Subshell":
        this.stmts(list(cmd, "Stmts"), false);
        return;
      case "IfClause": {
        let clause: MvNode | null = cmd;
        while (clause) {
          this.stmts(list(clause, "Cond"), false);
          this.stmts(list(clause, "Then"), false);
          clause = one(clause, "Else");
        }
        return;
      }
      case "WhileClause":
        this.stmts(list(cmd, "Cond"), false);
        this.stmts(list(cmd, "Do"), false);
        return;
      case "ForClause": {
        const name = str(one(one(cmd, "Loop"), "Name"), "Value");
        if (name) this.reader.setVar(name, null);
        this.stmts(list(cmd, "Do"), false);
        return;
      }
      case "CaseClause":
        for (const item of list(cmd, "Items")) this.stmts(list(item, "Stmts"), false);
        return;
      case "FuncDecl": {
        const body = one(cmd, "Body");
        if (body) this.stmt(body, false);
        return;
      }
      case "TimeClause":
      case "CoprocClause": {
        const inner = one(cmd, "Stmt");
        if (inner) this.stmt(inner, false);
        return;
      }
      default:
        return;
    }
  }

  private isPipe(cmd: MvNode): boolean {
    const opPos = field(cmd, "OpPos") as MvPos | undefined;
    if (!opPos) return false;
    const text = (this.lines[opPos.Line() - 1] ?? "").slice(opPos.Col() - 1);
    return text.startsWith("|") && !text.startsWith("||");
  }

  private assign(a: MvNode): void {
    const name = str(one(a, "Name"), "Value");
    if (!name) return;
    if (field(a, "Naked") === true) return;
    const value = one(a, "Value");
    this.reader.setVar(name, value ? this.word(value) : field(a, "Array") ? null : "");
  }
}

/** Feeds `reader` from mvdan-sh's reading; false when mvdan-sh rejects the script too. */
export function readWithMvdan(source: string, reader: Reader, lines: readonly string[]): boolean {
  const mv = syntax();
  let file: MvNode;
  try {
    file = mv.NewParser().Parse(source, "solve.sh");
  } catch {
    return false;
  }
  new MvReader(mv, reader, lines).stmts(list(file, "Stmts"), true);
  return true;
}
