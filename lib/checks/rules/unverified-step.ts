// unverified-step: the solution's new step creates an artifact that no test looks at.
import type { Finding } from "@/lib/flags/types";
import { diffText } from "@/lib/diff/text";
import type { ShellArtifact } from "../shell";
import type { RuleInput } from "../types";
import { isTestsFile, sameFiles } from "./common";

/** 1-based lines of `child` that `parent` does not have. */
export function addedLineSet(parent: string, child: string): Set<number> {
  const out = new Set<number>();
  for (const h of diffText(parent, child, { context: 0 }).hunks) for (const l of h.lines) if (l.op === "add" && l.new_no !== null) out.add(l.new_no);
  return out;
}

/** A path built onto another one: the string follows pathlib's `/` or is a later argument of `os.path.join`. */
const JOINED_TAIL = /(?:\/\s*|join\([^()]*,\s*)$/;

/**
 * Whether a test spells `name` as a string of its own (`".gitignore" in out`). A string that ends a
 * path the test builds (`Path("/home") / user / ".ssh" / "authorized_keys"`) names that path's file,
 * whose beginning the verifier's reading resolved (`resolvedLines`: "file:line" of each path it
 * read), so it is not this file; joined onto something unresolved, the name is all there is to go by.
 */
function spelledOnItsOwn(name: string, files: readonly { path: string; text: string }[], resolvedLines: ReadonlySet<string>): boolean {
  const quoted = new RegExp(`["']${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["']`, "g");
  for (const f of files) {
    if (!f.text.includes(name)) continue;
    const lines = f.text.split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      for (const m of line.matchAll(quoted)) {
        const joined = JOINED_TAIL.test(line.slice(0, m.index));
        if (!joined || !resolvedLines.has(`${f.path}:${i + 1}`)) return true;
      }
    }
  }
  return false;
}

export function unverifiedStep(input: RuleInput): Finding[] {
  const { task, parent } = input;
  if (!parent || !task.solution) return [];
  const mine = task.files.get("solution/solve.sh");
  const theirs = parent.files.get("solution/solve.sh");
  if (!mine || !theirs || mine.hash === theirs.hash) return [];
  const v = task.verifier;
  // An untouched verifier is verifier-not-updated's finding; without tests nothing can be said.
  if (v.tests.length === 0 || sameFiles(task, parent, isTestsFile)) return [];
  const added = addedLineSet(theirs.text, mine.text);
  const inNewStep = (a: ShellArtifact) => {
    for (let l = a.startLine; l <= a.endLine; l++) if (added.has(l)) return true;
    return false;
  };
  const looked = new Set<string>();
  const listed = new Set<string>();
  for (const r of v.paths) looked.add(r.path.replace(/\/+$/, ""));
  for (const t of v.tests) {
    for (const r of t.paths) {
      looked.add(r.path.replace(/\/+$/, ""));
    }
    for (const d of t.listed) listed.add(d);
  }
  const testFiles = [...task.files.values()].filter((f) => isTestsFile(f.path));
  const resolvedLines = new Set(v.paths.map((r) => `${r.file}:${r.line}`));
  const covered = (p: string): boolean => {
    if (looked.has(p)) return true;
    // A file the tests name on its own (`".gitignore" in out`, `ls` output) is looked at.
    const base = p.split("/").pop() ?? "";
    if (base.length >= 3 && spelledOnItsOwn(base, testFiles, resolvedLines)) return true;
    for (const t of looked) if (t.startsWith(`${p}/`)) return true;
    for (const d of listed) if (p.startsWith(`${d}/`)) return true;
    return false;
  };
  const removedLater = (a: ShellArtifact) => task.solution!.removed.some((r) => r.line > a.line && (r.path === a.path || a.path.startsWith(`${r.path}/`)));
  const untested: ShellArtifact[] = [];
  for (const a of task.solution.artifacts) {
    if (!inNewStep(a) || removedLater(a) || covered(a.path)) continue;
    if (!untested.some((u) => u.path === a.path)) untested.push(a);
  }
  const first = untested[0];
  if (!first) return [];
  return [
    {
      rule: "unverified-step",
      taskId: task.id,
      severity: "medium",
      message: `The new step of the solution creates ${untested.slice(0, 3).map((a) => `\`${a.path}\``).join(", ")}${untested.length > 3 ? ` and ${untested.length - 3} more` : ""}, which no test looks at: that work is never verified.`,
      evidence: { file: "solution/solve.sh", line: first.line, excerpt: first.excerpt, compare_task_id: parent.id },
    },
  ];
}
