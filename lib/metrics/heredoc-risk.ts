export interface HeredocStart {
  /** 0-based row of the `<<DELIM` operator; the body starts on a later line */
  row: number;
  delimiter: string;
  /** `<<-`: leading tabs are stripped, so a tab-indented delimiter ends the body */
  stripsTabs: boolean;
}

function endsBody(line: string, heredoc: HeredocStart): boolean {
  const candidate = heredoc.stripsTabs ? line.replace(/^\t+/, "") : line;
  return candidate === heredoc.delimiter;
}

/**
 * tree-sitter-bash ends a heredoc at any line that merely starts with its delimiter
 * (`EOFError = 1`, `    EOF`, `EOF `), turning the rest of the body into fake commands, often
 * without an error node. This finds bodies holding such a line, scanning the text up to the real
 * terminator. It errs towards "at risk" (several heredocs on one line are scanned from the same
 * row), which only costs a slower, correct parse.
 */
export function heredocAtRisk(lines: readonly string[], heredocs: readonly HeredocStart[]): boolean {
  return heredocs.some((heredoc) => {
    if (heredoc.delimiter === "") return false;
    for (let row = heredoc.row + 1; row < lines.length; row += 1) {
      const line = lines[row] ?? "";
      if (endsBody(line, heredoc)) return false;
      if (line.trimStart().startsWith(heredoc.delimiter)) return true;
    }
    return false;
  });
}
