import { toolsOfCommand, type ShellWord } from "./shell-tools";

/** What a shell parser tells us, in a shape both parsers (tree-sitter, mvdan-sh) can produce. */
export interface ShellFacts {
  /** the words of each simple command, its name first */
  commands: ShellWord[][];
  /** functions the script defines: calling one is not using a tool */
  functions: string[];
  /** tools implied by syntax rather than by a command node (mvdan's `time` clause) */
  extraTools: string[];
  /** 0-based rows on which a comment starts */
  commentRows: number[];
}

export interface ShellCounts {
  commands: number;
  tools: string[];
}

export function summarizeFacts(facts: ShellFacts): ShellCounts {
  const own = new Set(facts.functions);
  const tools = new Set(facts.extraTools);
  for (const words of facts.commands) {
    const name = words[0];
    // A call to a function defined in the same script reuses code; the tools are inside it.
    if (typeof name === "string" && own.has(name)) continue;
    for (const tool of toolsOfCommand(words)) tools.add(tool);
  }
  return { commands: facts.commands.length, tools: [...tools].sort() };
}

/** Non-blank lines that are not comment-only; a comment is what the parser says it is, so a
 * `#` line inside a heredoc body or a multi-line string still counts. */
export function countCodeLines(lines: readonly string[], commentRows: readonly number[]): number {
  const comments = new Set(commentRows);
  let count = 0;
  lines.forEach((line, row) => {
    const trimmed = line.trim();
    if (trimmed === "") return;
    if (trimmed.startsWith("#") && comments.has(row)) return;
    count += 1;
  });
  return count;
}
