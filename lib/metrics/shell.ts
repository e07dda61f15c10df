import { heredocAtRisk } from "./heredoc-risk";
import { countCodeLines, summarizeFacts } from "./shell-facts";
import { readWithMvdan } from "./shell-mvdan";
import { readBashTree } from "./shell-tree-sitter";
import { normalizeSource } from "./source";
import { withTree } from "./tree-sitter";

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
 * Measures a shell script (definitions in ./index.ts). tree-sitter-bash reads it first; when its
 * tree has errors or shows one of its known silent misreadings (a heredoc at risk of the
 * delimiter-prefix bug, a `\cmd` line glued onto the previous command), mvdan-sh (~25x
 * slower, correct on both) reads it again. When mvdan-sh rejects the script too, tree-sitter's
 * error-tolerant reading is kept: the counts are best effort, never a thrown error.
 */
export async function measureShell(script: string): Promise<ShellMetrics> {
  const source = normalizeSource(script);
  const lines = source.split("\n");
  const reading = await withTree("bash", source, readBashTree);
  let facts = reading.facts;
  let parser: ShellMetrics["parser"] = "tree-sitter";
  if (reading.hasError || reading.gluedLines || heredocAtRisk(lines, reading.heredocs)) {
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
