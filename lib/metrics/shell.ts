import { heredocAtRisk } from "./heredoc-risk";
import { countCodeLines, summarizeFacts } from "./shell-facts";
import { readRepairingGlue } from "./shell-glue";
import { readWithMvdan } from "./shell-mvdan";
import { readBashTree } from "./shell-tree-sitter";
import { normalizeSource } from "./source";

export interface ShellMetrics {
  lines: number;
  commands: number;
  distinctTools: number;
  /** sorted, distinct */
  tools: string[];
  /** the parser whose reading the counts come from */
  parser: "tree-sitter" | "mvdan-sh";
}

/**
 * Measures a shell script (definitions in ./index.ts). tree-sitter-bash reads it first, with glued
 * lines repaired (./shell-glue: a command run on into the next line after a `\`-continued
 * pipeline, a `\cmd` line); when its tree has errors or shows one of its known silent misreadings
 * (a glue the repairs did not end, a heredoc at risk of the delimiter-prefix bug), mvdan-sh (~25x
 * slower, correct on both) reads it again. When mvdan-sh rejects the script too, tree-sitter's
 * error-tolerant reading is kept: the counts are best effort, never a thrown error.
 */
export async function measureShell(script: string): Promise<ShellMetrics> {
  const source = normalizeSource(script);
  const lines = source.split("\n");
  const reading = await readRepairingGlue(source, (tree) => readBashTree(tree, lines));
  let facts = reading.facts;
  let parser: ShellMetrics["parser"] = "tree-sitter";
  if (reading.hasError || reading.gluedAt !== null || reading.gluedLines || heredocAtRisk(lines, reading.heredocs)) {
    const fallback = readWithMvdan(source);
    if (fallback) {
      facts = fallback;
      parser = "mvdan-sh";
    }
  }
  const counts = summarizeFacts(facts);
  return {
    lines: countCodeLines(lines, facts.commentRows),
    commands: counts.commands,
    distinctTools: counts.tools.length,
    tools: counts.tools,
    parser,
  };
}
