import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { storableString } from "./content";
import { safeJsonParse } from "./jsonl";

/** What safeJsonParse must always give: JSON.parse with its reviver, for every text. */
function withReviver(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
    return typeof value === "string" ? storableString(value) : value;
  });
}

/** JSON.stringify, then every character of the keys and strings written as a \u escape where
 * `escape` says so: the spellings a hand-written or foreign tool's file may use. */
function escaped(value: unknown, escape: (code: number, index: number) => boolean): string {
  return JSON.stringify(value).replace(/"((?:[^"\\]|\\.)*)"/g, (_m, body: string) => {
    const text = JSON.parse(`"${body}"`) as string;
    let out = "";
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      out += escape(code, i) || code < 0x20 || code === 0x22 || code === 0x5c ? `\\u${code.toString(16).padStart(4, "0")}` : text[i];
    }
    return `"${out}"`;
  });
}

describe("safeJsonParse", () => {
  test("drops keys that could reach a prototype, however they are spelled", () => {
    for (const text of [
      '{"a": 1, "__proto__": {"x": 1}, "b": {"constructor": 2, "prototype": 3, "c": 4}}',
      '{"a": 1, "\\u005f\\u005fproto\\u005f\\u005f": {"x": 1}, "b": {"\\u0063onstructor": 2, "prototyp\\u0065": 3, "c": 4}}',
      '{"a": 1, "\\u005F_proto__": {"x": 1}, "b": {"constructo\\u0072": 2, "\\u0070rototype": 3, "c": 4}}',
    ]) {
      const value = safeJsonParse(text) as Record<string, unknown>;
      expect(value).toEqual({ a: 1, b: { c: 4 } });
      expect(Object.keys(value)).toEqual(["a", "b"]);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    }
  });

  test("makes strings storable: an escaped NUL, lone surrogates; a pair is kept", () => {
    expect(safeJsonParse('{"log": "a\\u0000b", "x": ["\\ud800", "\\uDFFFz"], "ok": "\\ud83d\\ude00"}')).toEqual({
      log: "a\u2400b",
      x: ["\ufffd", "\ufffdz"],
      ok: "😀",
    });
  });

  test("gives what the reviver gives, for any value and any spelling of its strings", () => {
    const key = fc.oneof(fc.constantFrom("__proto__", "constructor", "prototype", "name", "status", "_"), fc.string({ unit: "binary" }));
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.string({ unit: fc.constantFrom("a", "_", "\0", "\ud800", "\udc00", "\x1b", "é", "\ud83d\ude00", "\\", '"', "\n") }),
        fc.string({ unit: "binary" }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 3 }), (value, mode) => {
        const escape = [() => false, () => true, (_c: number, i: number) => i % 2 === 0, (c: number) => c >= 0x40 && c < 0x80][mode]!;
        const text = escaped(value, escape);
        expect(safeJsonParse(text)).toStrictEqual(withReviver(text));
      }),
      { numRuns: 2000 },
    );
  });
});
