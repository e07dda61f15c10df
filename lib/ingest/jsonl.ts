// Line-numbered JSONL reading with size limits and strict schemas.
import fs from "node:fs";
import readline from "node:readline";
import type { z } from "zod";
import { storableString } from "./content";
import type { IssueList } from "./errors";

export const MAX_JSONL_LINE = 16 * 1024 * 1024;
export const MAX_JSON_FILE = 16 * 1024 * 1024;

/**
 * Text the reviver below could change: a dropped key spelled out or through escapes (every letter
 * and `_` is an escape \u0040–\u007f), an escaped NUL, or a surrogate, escaped or not (a paired one
 * is left as it is, but telling pairs apart is the reviver's job). Without any of them JSON.parse
 * alone gives the same value. Raw NUL cannot occur: JSON refuses unescaped control characters.
 */
const NEEDS_REVIVER = /__proto__|constructor|prototype|\\u(?:0000|00[4-7]|[dD][89a-fA-F])|[\uD800-\uDFFF]/;

/** JSON.parse that drops keys which could reach an object merge as prototype mutation, and makes
 * every string storable (no NUL, no lone surrogate: see storableString). */
export function safeJsonParse(text: string): unknown {
  // A reviver makes JSON.parse several times slower (it was ≈ 2 % of a native import's reading,
  // mostly trials' result.json and ctrf.json), and most texts give it nothing to do.
  if (!NEEDS_REVIVER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (key, value: unknown) => {
    if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
    return typeof value === "string" ? storableString(value) : value;
  });
}

export function zodMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

/** Yields validated records with their line numbers; bad lines are recorded as issues. */
export async function* readJsonl<T>(file: string, display: string, schema: z.ZodType<T>, issues: IssueList): AsyncGenerator<{ line: number; value: T }> {
  const rl = readline.createInterface({ input: fs.createReadStream(file, { encoding: "utf8" }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (text.trim() === "") continue;
    if (text.length > MAX_JSONL_LINE) {
      issues.add(display, `line is longer than ${MAX_JSONL_LINE} characters`, line);
      continue;
    }
    let raw: unknown;
    try {
      raw = safeJsonParse(text);
    } catch (err) {
      issues.add(display, `invalid JSON: ${(err as Error).message}`, line);
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      issues.add(display, zodMessage(parsed.error), line);
      continue;
    }
    yield { line, value: parsed.data };
  }
}

/** Reads and validates one JSON file; returns null (with an issue) when it is bad. */
export async function readJsonFile<T>(file: string, display: string, schema: z.ZodType<T>, issues: IssueList, maxBytes = MAX_JSON_FILE): Promise<T | null> {
  let text: string;
  try {
    const stat = await fs.promises.stat(file);
    if (stat.size > maxBytes) {
      issues.add(display, `file is ${stat.size} bytes, over the ${maxBytes}-byte limit`);
      return null;
    }
    text = await fs.promises.readFile(file, "utf8");
  } catch (err) {
    issues.add(display, `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return null;
  }
  return parseJsonText(text, display, schema, issues);
}

/** Parses and validates JSON already read; returns null (with an issue, and the line of a syntax
 * error) when it is bad. */
export function parseJsonText<T>(text: string, display: string, schema: z.ZodType<T>, issues: IssueList): T | null {
  let raw: unknown;
  try {
    raw = safeJsonParse(text);
  } catch (err) {
    const m = /position (\d+)/.exec((err as Error).message);
    const line = m?.[1] ? text.slice(0, Number(m[1])).split("\n").length : undefined;
    issues.add(display, `invalid JSON: ${(err as Error).message}`, line);
    return null;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    issues.add(display, zodMessage(parsed.error));
    return null;
  }
  return parsed.data;
}
