// untold-requirement: the verifier checks a path that neither the instruction nor the
// environment mentions.
import type { Finding } from "@/lib/flags/types";
import { copyInstructions, destinationsOf, withoutCopySources } from "../dockerfile";
import { isScratch } from "../shell";
import type { AnalysedTask, RuleInput } from "../types";
import { workdirOf } from "../verifier";

/** Paths a verifier reads that belong to the system or the harness, not to the task. */
export function isSystemPath(p: string): boolean {
  if (isScratch(p)) return true;
  return /^\/(?:logs|tests|oracle|solution|usr\/(?:bin|sbin|lib|lib64|libexec|share|include)|bin|sbin|lib|lib32|lib64|etc\/(?:passwd|group|shadow|hostname|os-release|resolv\.conf|nsswitch\.conf|login\.defs)|root\/?$|home\/?$|opt\/?$|app\/?$|srv\/?$|var\/?$|etc\/?$|usr\/?$|usr\/local\/?$)(?:\/|$)/.test(p);
}

/** What the task tells a solver: the instruction and every file of the environment. */
function toldText(task: AnalysedTask): string {
  const parts: string[] = [];
  const dockerfile = task.files.get("environment/Dockerfile")?.text ?? "";
  const copies = copyInstructions(dockerfile);
  for (const f of task.files.values()) {
    if (f.path === "instruction.md") parts.push(f.text);
    if (!f.path.startsWith("environment/")) continue;
    parts.push(f.path === "environment/Dockerfile" ? withoutCopySources(f.text) : f.text);
    // A file shipped with the environment is told by being there: where the Dockerfile copies it
    // (COPY data/ /app/data/), or by its own name when no COPY takes it.
    const rel = f.path.slice("environment/".length);
    parts.push(...(destinationsOf(rel, copies) ?? [rel]));
  }
  return parts.join("\n");
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether the told text names the path: in full, relative to the working directory, or by its
 * file name as a word (`server.key`, `` `report.csv` ``). A directory is named by any path under it. */
export function mentioned(p: string, told: string, workdir: string | null): boolean {
  const path = p.replace(/\/+$/, "");
  if (path === "" || told.includes(path)) return true;
  if (workdir && path.startsWith(`${workdir}/`) && told.includes(path.slice(workdir.length + 1))) return true;
  const base = path.split("/").pop() ?? "";
  // The file name on its own, not as the tail of some other path (`sites-enabled/x.conf` is not told by `sites-available/x.conf`).
  if (base.length >= 3 && new RegExp(`(^|[^\\w./-])${escape(base)}(?![\\w-]|\\.\\w)`).test(told)) return true;
  return false;
}

export function untoldRequirement(input: RuleInput): Finding[] {
  const { task } = input;
  const v = task.verifier;
  if (v.pythonFiles.length === 0 || !task.files.has("instruction.md")) return [];
  const told = toldText(task);
  const workdir = workdirOf(task);
  // Other verifier files (fixtures, expected outputs) are part of the verifier, not requirements.
  const untold = new Map<string, { file: string; line: number; excerpt: string; test?: string }>();
  const testOf = (file: string, line: number) => v.tests.find((t) => t.file === file && t.line <= line && t.paths.some((r) => r.line === line))?.name;
  for (const ref of v.paths) {
    // A path no test reads, or one that is only part of expected text, is not a checked path.
    if (ref.kind === "text" || !v.tests.some((t) => t.paths.some((r) => r.path === ref.path && r.kind !== "text"))) continue;
    if (isSystemPath(ref.path) || untold.has(ref.path)) continue;
    if (mentioned(ref.path, told, workdir)) continue;
    untold.set(ref.path, { file: ref.file, line: ref.line, excerpt: ref.excerpt, test: testOf(ref.file, ref.line) });
  }
  // A directory whose files are named is not a separate requirement.
  const paths = [...untold.keys()].filter((p) => ![...untold.keys()].some((q) => q !== p && q.startsWith(`${p}/`)));
  const first = paths[0];
  if (first === undefined) return [];
  const at = untold.get(first)!;
  return [
    {
      rule: "untold-requirement",
      taskId: task.id,
      severity: "medium",
      message: `The verifier checks ${paths.slice(0, 3).map((p) => `\`${p}\``).join(", ")}${paths.length > 3 ? ` and ${paths.length - 3} more` : ""}, which neither the instruction nor the environment mentions: a solver cannot know it is required.`,
      evidence: { file: at.file, line: at.line, excerpt: at.excerpt, ...(at.test ? { test: at.test } : {}) },
    },
  ];
}
