// Where a Dockerfile puts the files shipped beside it: COPY and ADD take sources from the build
// context (the task's environment/ directory) and write them into the image. A source operand
// names a context path, not a path in the image, so what the environment tells a solver about a
// shipped file is where it lands.
import { posix } from "node:path";

export interface CopyInstruction {
  /** context paths as written, `./` and trailing slashes dropped ("." is the whole context) */
  sources: string[];
  /** the image path, made absolute against the WORKDIR in force (null when it cannot be known) */
  dest: string | null;
  /** the destination as written ends with a slash: sources go inside it */
  intoDir: boolean;
}

/** The Dockerfile's logical lines: continuations joined, comments and blank lines dropped. */
function logicalLines(text: string): string[] {
  const out: string[] = [];
  let acc = "";
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\r$/, "");
    if (acc === "" && /^\s*(#|$)/.test(line)) continue;
    if (/\\\s*$/.test(line)) {
      acc += line.replace(/\\\s*$/, " ");
      continue;
    }
    out.push(acc + line);
    acc = "";
  }
  if (acc !== "") out.push(acc);
  return out;
}

function operands(rest: string): string[] | null {
  const trimmed = rest.trim();
  if (trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) && parsed.every((x) => typeof x === "string") ? parsed : null;
    } catch {
      return null;
    }
  }
  return trimmed.split(/\s+/).filter((w) => w !== "");
}

/** COPY and ADD instructions that copy from the build context (not `--from` another stage or a URL). */
export function copyInstructions(dockerfile: string): CopyInstruction[] {
  const out: CopyInstruction[] = [];
  let workdir = "/";
  for (const line of logicalLines(dockerfile)) {
    const m = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const keyword = (m[1] ?? "").toUpperCase();
    const rest = m[2] ?? "";
    if (keyword === "WORKDIR") {
      const dir = rest.trim();
      workdir = dir.includes("$") ? "" : posix.resolve(workdir || "/", dir);
      continue;
    }
    if (keyword !== "COPY" && keyword !== "ADD") continue;
    const words = operands(rest.replace(/^(\s*--[\w-]+(=\S*)?)+/, ""));
    if (!words || words.length < 2 || /(^|\s)--from[=\s]/.test(rest)) continue;
    const destRaw = words[words.length - 1] ?? "";
    const sources = words
      .slice(0, -1)
      .filter((s) => !/^[a-z]+:\/\//i.test(s))
      .map((s) => s.replace(/^(\.\/)+/, "").replace(/\/+$/, "") || ".");
    if (sources.length === 0) continue;
    const dest = destRaw.includes("$") || (!destRaw.startsWith("/") && workdir === "") ? null : posix.resolve(workdir || "/", destRaw);
    out.push({ sources, dest, intoDir: destRaw.endsWith("/") || sources.length > 1 });
  }
  return out;
}

const globRe = (glob: string): RegExp => new RegExp(`^${glob.replace(/[.+^${}()|\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]")}$`);

/**
 * The image paths a shipped file lands at (`rel`: its path under environment/), or null when no
 * COPY or ADD takes it to a place that can be known (the caller then goes by its name).
 */
export function destinationsOf(rel: string, copies: readonly CopyInstruction[]): string[] | null {
  const out: string[] = [];
  for (const c of copies) {
    if (c.dest === null) continue;
    for (const src of c.sources) {
      if (src === ".") out.push(posix.join(c.dest, rel));
      else if (rel === src || (/[*?]/.test(src) && globRe(src).test(rel))) out.push(c.intoDir ? posix.join(c.dest, posix.basename(rel)) : c.dest);
      else if (rel.startsWith(`${src}/`)) out.push(posix.join(c.dest, rel.slice(src.length + 1)));
    }
  }
  return out.length > 0 ? out : null;
}

/** The Dockerfile as it tells the image: every COPY/ADD reduced to its destination, since its
 * sources are build-context names (`COPY Makefile /srv/app/src/Makefile` tells one Makefile, at
 * /srv/app/src, not every file called Makefile). */
export function withoutCopySources(dockerfile: string): string {
  return logicalLines(dockerfile)
    .map((line) => {
      const m = /^(\s*(?:COPY|ADD)\s+)(.*)$/i.exec(line);
      if (!m) return line;
      const words = operands((m[2] ?? "").replace(/^(\s*--[\w-]+(=\S*)?)+/, ""));
      return words && words.length > 0 ? `${m[1] ?? ""}${words[words.length - 1] ?? ""}` : line;
    })
    .join("\n");
}
