// Terminal-Bench 1 task directories (FORMATS.md §2) mapped, at import, onto the Harbor layout (§1)
// that the rest of ingest, metrics and the UI read. task.yaml itself is not kept: everything it
// holds is in instruction.md and the generated task.toml.
import { isUtf8 } from "node:buffer";
import { stringify as stringifyToml } from "smol-toml";
import { isMap, isNode, isScalar, LineCounter, parseDocument } from "yaml";
import type { IssueList } from "./errors";
import { byParts } from "./interchange-files";
import type { TreeFile } from "./walk";

/** Root files that have a place of their own in the Harbor layout; every other file stays put. */
const ROOT_MOVES: ReadonlyMap<string, string> = new Map([
  ["solution.sh", "solution/solve.sh"],
  ["solution.yaml", "solution/solution.yaml"],
  ["run-tests.sh", "tests/test.sh"],
  ["Dockerfile", "environment/Dockerfile"],
  ["docker-compose.yaml", "environment/docker-compose.yaml"],
  ["docker-compose.yml", "environment/docker-compose.yml"],
]);

type FieldType = "string" | "number" | "boolean" | "string list";

const EXPECTED: Record<FieldType, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  "string list": "a list of strings",
};

/** task.yaml's documented fields besides instruction and the timeouts, in the order [metadata]
 * lists them; unknown fields follow in the order task.yaml has them. */
const METADATA_FIELDS: readonly (readonly [string, FieldType])[] = [
  ["difficulty", "string"],
  ["category", "string"],
  ["tags", "string list"],
  ["author_name", "string"],
  ["author_email", "string"],
  ["parser_name", "string"],
  ["expert_time_estimate_min", "number"],
  ["junior_time_estimate_min", "number"],
  ["estimated_duration_sec", "number"],
  ["run_tests_in_same_shell", "boolean"],
  ["disable_asciinema", "boolean"],
];

const TIMEOUTS = [
  ["max_test_timeout_sec", "verifier"],
  ["max_agent_timeout_sec", "agent"],
] as const;

const NOT_METADATA = new Set<string>(["instruction", ...TIMEOUTS.map(([field]) => field)]);

const TOML_HEADER = [
  "# Generated at import from a Terminal-Bench 1 task.yaml: its instruction is instruction.md,",
  "# max_test_timeout_sec and max_agent_timeout_sec are [verifier] and [agent] timeout_sec, and",
  "# every other field (unknown ones too) is in [metadata].",
  "",
].join("\n");

/** A TB1 task: task.yaml at the root, and neither of the files that make a Harbor task. */
export function isTerminalBench1(tree: readonly TreeFile[]): boolean {
  const paths = new Set(tree.map((f) => f.rel));
  return paths.has("task.yaml") && !paths.has("instruction.md") && !paths.has("task.toml");
}

function hasType(v: unknown, type: FieldType): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "boolean":
      return typeof v === "boolean";
    case "string list":
      return Array.isArray(v) && v.every((x) => typeof x === "string");
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;
}

function describeValue(v: unknown): string {
  if (v === null || v === undefined) return "an empty document";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "a tagged collection" : `a single ${typeof v}`;
}

/** `v` as TOML can hold it: nulls dropped (from tables and lists alike), YAML 1.1's binary as
 * base64 text, its sets as lists and its ordered maps as tables. undefined: nothing to keep. */
function toTomlValue(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  if (v instanceof Set) return toTomlValue([...v]);
  if (Array.isArray(v)) return v.map(toTomlValue).filter((x) => x !== undefined);
  if (v instanceof Map) return tomlTable([...v].map(([k, x]) => [String(k), x] as const));
  if (v instanceof Date) return v;
  if (typeof v === "object") return tomlTable(Object.entries(v));
  return v;
}

// Object.fromEntries defines own properties, so a `__proto__` field stays a field.
function tomlTable(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const kept: [string, unknown][] = [];
  for (const [k, v] of entries) {
    const t = toTomlValue(v);
    if (t !== undefined) kept.push([k, t]);
  }
  return Object.fromEntries(kept);
}

interface TaskYaml {
  fields: Record<string, unknown>;
  /** 1-based line of a top-level field's value (or key), when the document has it */
  lineOf: (field: string) => number | undefined;
}

function readTaskYaml(bytes: Buffer, file: string, issues: IssueList): TaskYaml | null {
  if (!isUtf8(bytes)) {
    issues.add(file, "not UTF-8 text");
    return null;
  }
  const raw = bytes.toString("utf8");
  const text = raw.startsWith("\uFEFF") ? raw.slice(1) : raw;
  const lineCounter = new LineCounter();
  // YAML 1.1, as Terminal-Bench reads it (PyYAML): `yes`/`no` are booleans, dates are dates.
  const doc = parseDocument(text, { version: "1.1", lineCounter, prettyErrors: false, logLevel: "error" });
  const first = doc.errors[0];
  if (first) {
    const message = first.code === "MULTIPLE_DOCS" ? "more than one document" : first.message;
    // An error found at the end of the text (an unclosed quote) is on its last line, not after it.
    const lastLine = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    issues.add(file, `invalid YAML: ${message}`, Math.max(1, Math.min(lineCounter.linePos(first.pos[0]).line, lastLine)));
    return null;
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    // e.g. too many aliases (a "billion laughs" document)
    issues.add(file, `invalid YAML: ${(err as Error).message}`);
    return null;
  }
  if (!isPlainObject(value)) {
    issues.add(file, `expected a mapping of fields (instruction, difficulty, …), found ${describeValue(value)}`);
    return null;
  }
  const contents = doc.contents;
  const lineOf = (field: string): number | undefined => {
    if (!isMap(contents)) return undefined;
    const pair = contents.items.find((p) => isScalar(p.key) && p.key.value === field);
    const node = isNode(pair?.value) ? pair.value : isNode(pair?.key) ? pair.key : null;
    return node?.range ? lineCounter.linePos(node.range[0]).line : undefined;
  };
  return { fields: value, lineOf };
}

/** task.yaml's instruction (null when unusable) and the task.toml it becomes (null when it
 * cannot be written). Wrong types are issues naming the field; unknown fields are kept. */
function mapTaskYaml(yaml: TaskYaml, name: string, file: string, issues: IssueList): { instruction: string | null; toml: string | null } {
  const { fields, lineOf } = yaml;
  const get = (field: string): unknown => (Object.hasOwn(fields, field) ? fields[field] : undefined);
  const typed = (field: string, type: FieldType): unknown => {
    const v = get(field);
    if (v === undefined || v === null) return undefined; // absent, or left empty: nothing to keep
    if (hasType(v, type)) return v;
    issues.add(file, `field "${field}" must be ${EXPECTED[type]}`, lineOf(field));
    return undefined;
  };

  let instruction: string | null = null;
  const given = get("instruction");
  if (given === undefined || given === null) issues.add(file, 'missing required field "instruction"', lineOf("instruction"));
  else if (typeof given !== "string" || given.trim() === "") issues.add(file, 'field "instruction" must be a non-empty string', lineOf("instruction"));
  else instruction = given;

  const metadata: [string, unknown][] = [];
  const known = new Set<string>();
  for (const [field, type] of METADATA_FIELDS) {
    known.add(field);
    const v = typed(field, type);
    if (v !== undefined) metadata.push([field, v]);
  }
  for (const [field, v] of Object.entries(fields)) {
    if (!known.has(field) && !NOT_METADATA.has(field)) metadata.push([field, v]);
  }

  const config: [string, unknown][] = [["version", "1.0"]];
  if (name !== "") config.push(["task", { name }]);
  config.push(["metadata", tomlTable(metadata)]);
  for (const [field, section] of TIMEOUTS) {
    const v = typed(field, "number");
    if (v !== undefined) config.push([section, { timeout_sec: v }]);
  }
  try {
    return { instruction, toml: TOML_HEADER + stringifyToml(Object.fromEntries(config)) };
  } catch (err) {
    // a lone surrogate in a key, an invalid date, nesting past smol-toml's depth limit
    issues.add(file, `cannot be written as task.toml: ${(err as Error).message}`);
    return { instruction, toml: null };
  }
}

/**
 * The Harbor tree of a TB1 task: instruction.md and task.toml from task.yaml, solution.sh →
 * solution/solve.sh, solution.yaml → solution/solution.yaml, run-tests.sh → tests/test.sh,
 * Dockerfile and docker-compose.y(a)ml → environment/; every other file keeps its path. Sorted
 * like a directory walk; the input is not changed. Two files landing on one path is an issue.
 */
export function terminalBench1ToHarbor(tree: readonly TreeFile[], display: string, issues: IssueList): TreeFile[] {
  const out = new Map<string, { from: string; bytes: Buffer }>();
  const place = (from: string, to: string, bytes: Buffer): void => {
    const taken = out.get(to);
    if (taken === undefined) out.set(to, { from, bytes });
    else if (from === "run-tests.sh" && to === "tests/test.sh") issues.add(`${display}/${from}`, "ambiguous verifier entry point: the task has both run-tests.sh and tests/test.sh");
    else issues.add(`${display}/${from}`, `would become ${to}, which the task already has (${taken.from})`);
  };
  const moves = tree.filter((f) => f.rel !== "task.yaml").map((f) => ({ from: f.rel, to: ROOT_MOVES.get(f.rel) ?? f.rel, bytes: f.bytes }));
  // Files already in their Harbor place first: a moved file landing on one is the one reported.
  for (const m of moves) if (m.from === m.to) place(m.from, m.to, m.bytes);
  for (const m of moves) if (m.from !== m.to) place(m.from, m.to, m.bytes);

  const yamlFile = tree.find((f) => f.rel === "task.yaml");
  const file = `${display}/task.yaml`;
  if (yamlFile === undefined) issues.add(display, "missing task.yaml");
  else {
    const yaml = readTaskYaml(yamlFile.bytes, file, issues);
    // The task's name is its directory's: the last part of how messages name it.
    const name = display.split("/").at(-1) ?? "";
    const mapped = yaml === null ? null : mapTaskYaml(yaml, name, file, issues);
    if (mapped && mapped.instruction !== null) place("task.yaml", "instruction.md", Buffer.from(mapped.instruction, "utf8"));
    if (mapped && mapped.toml !== null) place("task.yaml", "task.toml", Buffer.from(mapped.toml, "utf8"));
  }
  return [...out].map(([rel, { bytes }]) => ({ rel, bytes })).sort(byParts);
}
