// House style for generated scripts: long pipelines are broken one stage per line, the way
// reviewed shell code usually looks. Heredoc bodies and quoted text are never touched.

interface ScanState {
  quote: "'" | '"' | null;
  depth: number;
}

/** Offsets of top-level ` | ` separators in `line`, advancing the quote/paren state. */
function topLevelPipes(line: string, st: ScanState): number[] {
  const out: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (st.quote === "'") {
      if (ch === "'") st.quote = null;
      continue;
    }
    if (ch === "\\") {
      i++;
      continue;
    }
    if (st.quote === '"') {
      if (ch === '"') st.quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') st.quote = ch;
    else if (ch === "(") st.depth++;
    else if (ch === ")") st.depth = Math.max(0, st.depth - 1);
    else if (ch === "#" && (i === 0 || line[i - 1] === " ")) break;
    else if (ch === "|" && st.depth === 0 && line[i - 1] === " " && line[i + 1] === " ") out.push(i);
  }
  return out;
}

const HEREDOC = /<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?/;
const GUARD = /^(\s*)(\S.*?) \|\| \{ (.+); \}$/;

/** `cond || { echo msg >&2; exit 1; }` reads better as an if-block once a script grows. */
function expandGuard(line: string): string[] | null {
  const m = GUARD.exec(line);
  if (!m) return null;
  const [, indent = "", cond = "", body = ""] = m;
  if (cond.includes("$(") || !/\bexit \d+$/.test(body)) return null;
  return [`${indent}if ! ${cond}; then`, ...body.split("; ").map((c) => `${indent}  ${c}`), `${indent}fi`];
}

export function breakPipelines(script: string): string {
  const out: string[] = [];
  const st: ScanState = { quote: null, depth: 0 };
  let terminator: string | null = null;
  for (const line of script.split("\n")) {
    if (terminator !== null) {
      out.push(line);
      if (line.trim() === terminator) terminator = null;
      continue;
    }
    const startedInside = st.quote !== null || st.depth > 0;
    const pipes = topLevelPipes(line, st);
    const doc = HEREDOC.exec(line);
    if (doc?.[1] && st.quote === null) terminator = doc[1];
    const long = line.length > 64;
    const trimmed = line.trimStart();
    const guard = startedInside ? null : expandGuard(line);
    if (guard) {
      out.push(...guard);
      continue;
    }
    if (startedInside || trimmed.startsWith("#") || trimmed.startsWith("|") || pipes.length === 0 || (pipes.length < 2 && !long)) {
      out.push(line);
      continue;
    }
    const indent = line.slice(0, line.length - line.trimStart().length);
    let prev = 0;
    const segments: string[] = [];
    for (const p of pipes) {
      segments.push(line.slice(prev, p).trimEnd());
      prev = p + 2;
    }
    segments.push(line.slice(prev));
    const first = segments[0] ?? "";
    out.push(`${first} \\`);
    segments.slice(1).forEach((seg, i) => {
      out.push(`${indent}  | ${seg}${i < segments.length - 2 ? " \\" : ""}`);
    });
  }
  return out.join("\n");
}
