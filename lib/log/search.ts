// In-log search on the server (the viewer only ever holds a window of lines). The pattern is the
// reviewer's, so it runs in a vm context with a deadline: a catastrophic regex is interrupted
// instead of holding the server's thread (V8 stops a running regex on a vm timeout).
// Server only (node:vm).
import vm from "node:vm";

export const MAX_MATCHES = 10_000;
export const MAX_QUERY_CHARS = 500;
export const SEARCH_BUDGET_MS = 10_000;

export interface LogQuery {
  q: string;
  regex: boolean;
  caseSensitive: boolean;
}

export interface LogMatch {
  line: number;
  start: number;
  end: number;
}

export interface SearchResult {
  total: number;
  matches: LogMatch[];
  truncated: boolean;
}

/** The query cannot run: bad pattern, too long, too slow. The message is for the reviewer. */
export class LogSearchError extends Error {}

const SCANNER = `
const re = new RegExp(source, flags);
function scan(lines, first) {
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i];
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      if (m[0].length === 0) { re.lastIndex++; continue; }
      total++;
      if (found.length < max * 3) found.push(first + i, m.index, m.index + m[0].length);
    }
  }
}`;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export class LogSearch {
  private readonly ctx: vm.Context;
  private readonly deadline: number;

  constructor(query: LogQuery, budgetMs = SEARCH_BUDGET_MS) {
    if (query.q.length === 0) throw new LogSearchError("empty search");
    if (query.q.length > MAX_QUERY_CHARS) throw new LogSearchError(`the search is longer than ${MAX_QUERY_CHARS} characters`);
    const source = query.regex ? query.q : escapeRegExp(query.q);
    this.ctx = vm.createContext({ source, flags: query.caseSensitive ? "g" : "gi", total: 0, found: [] as number[], max: MAX_MATCHES });
    this.deadline = Date.now() + budgetMs;
    try {
      vm.runInContext(SCANNER, this.ctx, { timeout: budgetMs });
    } catch (err) {
      throw new LogSearchError(`not a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, "")}`);
    }
  }

  /** Scans visible lines (escapes stripped) numbered from `first`. */
  scan(lines: string[], first: number): void {
    const remaining = this.deadline - Date.now();
    this.ctx.lines = lines;
    this.ctx.first = first;
    try {
      if (remaining <= 0) throw new Error("timeout");
      vm.runInContext("scan(lines, first)", this.ctx, { timeout: remaining });
    } catch {
      throw new LogSearchError(`the search took longer than ${SEARCH_BUDGET_MS / 1000} s; make the pattern simpler or more specific`);
    } finally {
      this.ctx.lines = null;
    }
  }

  result(): SearchResult {
    const found = this.ctx.found as number[];
    const matches: LogMatch[] = [];
    for (let i = 0; i < found.length && matches.length < MAX_MATCHES; i += 3) {
      matches.push({ line: found[i] ?? 0, start: found[i + 1] ?? 0, end: found[i + 2] ?? 0 });
    }
    const total = this.ctx.total as number;
    return { total, matches, truncated: total > matches.length };
  }
}
