// A Harbor / Terminal-Bench 2 task directory (FORMATS.md §1) read into storable files and config.
import { isUtf8 } from "node:buffer";
import { parse as parseToml, TomlError } from "smol-toml";
import { isSearchedFile } from "@/lib/tasks/search";
import { NUL_MARKER, toStoredContent, type StoredContent } from "./content";
import type { IssueList } from "./errors";
import { isTerminalBench1, terminalBench1ToHarbor } from "./tb1-task";
import { readTree, type TreeFile } from "./walk";

export interface TaskFileContent {
  path: string;
  stored: StoredContent;
}

export interface ParsedTaskDir {
  files: TaskFileContent[];
  /** UTF-8 text of every text file, for metrics and search. */
  texts: Map<string, string>;
  config: Record<string, unknown>;
  name: string | null;
  category: string | null;
  difficulty: string | null;
}

function table(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function strOrNull(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v : null;
}

/** TOML dates and bigints become JSON-plain values so the config can be stored as jsonb. */
function toJsonPlain(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(toJsonPlain);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) out[k] = toJsonPlain(val);
    return out;
  }
  return v;
}

export function parseTaskToml(text: string, display: string, issues: IssueList): Record<string, unknown> {
  try {
    return table(toJsonPlain(parseToml(text)));
  } catch (err) {
    if (err instanceof TomlError) issues.add(display, `invalid TOML: ${err.message.split("\n")[0] ?? ""}`, err.line);
    else issues.add(display, `invalid TOML: ${(err as Error).message}`);
    return {};
  }
}

export function readHarborTask(dir: string, display: string, issues: IssueList): ParsedTaskDir {
  return parseTaskFiles(readTree(dir, issues, display), display, issues);
}

/** A task's files (from a directory, a JSONL line or an archive) read into storable files and
 * config; a Terminal-Bench 1 task (task.yaml) is first mapped onto the Harbor layout. */
export function parseTaskFiles(given: readonly TreeFile[], display: string, issues: IssueList): ParsedTaskDir {
  const tb1 = isTerminalBench1(given);
  const tree = tb1 ? terminalBench1ToHarbor(given, display, issues) : given;
  const files: TaskFileContent[] = [];
  const texts = new Map<string, string>();
  for (const f of tree) {
    const stored = toStoredContent(f.bytes);
    files.push({ path: f.rel, stored });
    // The stored file keeps a byte order mark; parsers and search read the text after it. Text
    // stored as base64 only because it holds the NUL marker itself is still text to them.
    const text = stored.encoding === "utf8" ? stored.content : isUtf8(f.bytes) ? f.bytes.toString("utf8").replaceAll("\0", NUL_MARKER) : undefined;
    if (text !== undefined) texts.set(f.rel, text.startsWith("\uFEFF") ? text.slice(1) : text);
  }
  // A task.yaml without a usable instruction has said so already.
  if (!texts.has("instruction.md") && !tb1) issues.add(display, "missing instruction.md");
  const tomlText = texts.get("task.toml");
  const config = tomlText === undefined ? {} : parseTaskToml(tomlText, `${display}/task.toml`, issues);
  const task = table(config.task);
  const metadata = table(config.metadata);
  return {
    files,
    texts,
    config,
    name: strOrNull(task.name),
    category: strOrNull(metadata.category),
    difficulty: strOrNull(metadata.difficulty),
  };
}

/** The text full-text search indexes (its words: lib/tasks/search.ts searchWords): instruction,
 * solution and verifier files. */
export function searchedText(texts: Map<string, string>, maxChars = 400_000): string {
  const parts: string[] = [];
  for (const [p, t] of texts) {
    if (isSearchedFile(p)) parts.push(t);
  }
  return parts.join("\n").slice(0, maxChars);
}
