// Which paths a bash fragment writes, read the simple way a reviewer (or a lint) would: targets
// of redirections and tee, with plain NAME=/abs/path variables resolved.

/** Lines of the child's solve.sh that the parent's does not have: the new step. */
export function addedLines(parentSolve: string, childSolve: string): string[] {
  const before = new Set(parentSolve.split("\n"));
  return childSolve.split("\n").filter((l) => !before.has(l));
}

/** Paths the added lines write to: redirection and tee targets, with simple variables resolved. */
export function createdPaths(lines: readonly string[], fullScript: string): string[] {
  const vars = new Map<string, string>();
  for (const m of fullScript.matchAll(/^\s*([A-Z_][A-Z0-9_]*)=(\/[^\s"';|&]+)\s*$/gm)) if (m[1] && m[2]) vars.set(m[1], m[2]);
  const resolve = (token: string): string => token.replace(/^"|"$/g, "").replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, v: string) => vars.get(v) ?? `$${v}`);
  const out = new Set<string>();
  for (const line of lines) {
    if (/^\s*#/.test(line)) continue;
    for (const m of line.matchAll(/(?:>>?|\btee(?: -a)?)\s+("?[^\s;|&)]+"?)/g)) {
      const target = resolve(m[1] ?? "");
      if (target.startsWith("/") && !target.startsWith("/dev/") && !target.includes("$")) out.add(target);
    }
  }
  return [...out];
}
