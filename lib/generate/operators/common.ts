// Small helpers shared by the operator templates.
import { breakPipelines } from "../format-shell";
import type { Artifact, ArtifactKind, OpContext, OpResult, TestPart } from "../types";

export const dirOf = (p: string): string => {
  const i = p.lastIndexOf("/");
  return i <= 0 ? "/" : p.slice(0, i);
};

export const baseOf = (p: string): string => p.slice(p.lastIndexOf("/") + 1);

/** Drops the extension: `/a/b.csv` → `b`. */
export const stemOf = (p: string): string => {
  const b = baseOf(p);
  const i = b.indexOf(".");
  return i <= 0 ? b : b.slice(0, i);
};

/** The newest artifact of one of the kinds, preferring later ones so chains build on each other. */
export function latest(c: OpContext, kinds: readonly ArtifactKind[]): Artifact | null {
  for (let i = c.artifacts.length - 1; i >= 0; i--) {
    const a = c.artifacts[i];
    if (a && kinds.includes(a.kind)) return a;
  }
  return null;
}

/** A random artifact of the kinds, or null. */
export function anyOf(c: OpContext, kinds: readonly ArtifactKind[]): Artifact | null {
  const matching = c.artifacts.filter((a) => kinds.includes(a.kind));
  return matching.length === 0 ? null : c.rng.pick(matching);
}

export function has(c: OpContext, kinds: readonly ArtifactKind[]): boolean {
  return c.artifacts.some((a) => kinds.includes(a.kind));
}

/** True when no artifact already sits at the path (operators never overwrite earlier work). */
export function free(c: OpContext, ...paths: string[]): boolean {
  return !c.artifacts.some((a) => paths.includes(a.path));
}

/** Strips the common indentation of a template literal and trims blank edges. */
export function sh(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  let text = strings[0] ?? "";
  values.forEach((v, i) => {
    text += String(v) + (strings[i + 1] ?? "");
  });
  const lines = text.split("\n");
  while (lines.length > 0 && (lines[0] ?? "").trim() === "") lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] ?? "").trim() === "") lines.pop();
  let indent = Infinity;
  for (const l of lines) if (l.trim() !== "") indent = Math.min(indent, l.length - l.trimStart().length);
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

interface Spec {
  step: string;
  output: string[];
  primary: Artifact;
  primaryIsNew?: boolean;
  secondary?: Artifact | null;
  testName: string;
  testDoc: string;
  primaryPart: TestPart;
  secondaryPart?: TestPart | null;
  need: string;
  needSecondary?: string | null;
  label: string;
  packages?: readonly string[];
}

export function opResult(id: string, s: Spec): OpResult {
  return {
    step: { op: id, text: breakPipelines(s.step), output: s.output },
    primary: s.primary,
    primaryIsNew: s.primaryIsNew ?? true,
    secondary: s.secondary ?? null,
    testName: s.testName,
    testDoc: s.testDoc,
    primaryPart: s.primaryPart,
    secondaryPart: s.secondaryPart ?? null,
    need: s.need,
    needSecondary: s.needSecondary ?? null,
    label: s.label,
    packages: s.packages ?? [],
  };
}

export const snake = (s: string): string => s.replace(/[^a-zA-Z0-9]+/g, "_").replace(/^_|_$/g, "").toLowerCase();
