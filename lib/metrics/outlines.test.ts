import { describe, expect, it } from "vitest";
import { random } from "@/lib/diff/random-edits";
import { commonPrefix, entriesOf, outlineOf, sharedAround, sharedStart, type Outline, type TopEntry } from "./outlines";

const entry = (startIndex: number, endIndex: number, startRow: number, type = "command"): TopEntry => ({ type, isNamed: true, startIndex, endIndex, startRow });

/** A script of `n` one-line commands, and its outline as a parse would give it. */
function lines(n: number, prefix = "echo line"): { text: string; entries: TopEntry[] } {
  const entries: TopEntry[] = [];
  let text = "";
  for (let i = 0; i < n; i++) {
    const line = `${prefix} ${String(i).padStart(4, "0")} with some words to make it longer`;
    entries.push(entry(text.length, text.length + line.length, i));
    text += `${line}\n`;
  }
  return { text, entries };
}

describe("sharedStart", () => {
  const outline = (grammar: "bash" | "python", script: { text: string; entries: TopEntry[] }, confirmedUpTo = script.text.length): Outline =>
    outlineOf(grammar, script.text, script.entries, confirmedUpTo);

  it("resumes at the last statement start the two scripts share, within what was confirmed", () => {
    const parent = lines(40);
    const earlier = [outline("bash", parent)];
    // The child changes line 30: the parse resumes at line 30's start, after 30 entries.
    const at30 = parent.entries[30]!.startIndex;
    const child = `${parent.text.slice(0, at30)}rm -rf /tmp/x\n${parent.text.slice(parent.entries[31]!.startIndex)}`;
    expect(sharedStart("bash", child, earlier)).toEqual({ at: at30, row: 30, entries: parent.entries.slice(0, 30) });
    // A change inside line 30 still resumes at its start; one inside line 12, at line 12.
    expect(sharedStart("bash", `${parent.text.slice(0, at30 + 5)}X${parent.text.slice(at30 + 5)}`, earlier)?.at).toBe(at30);
    const at12 = parent.entries[12]!.startIndex;
    expect(sharedStart("bash", `${parent.text.slice(0, at12 + 3)}X${parent.text.slice(at12 + 3)}`, earlier)?.row).toBe(12);
    // Only up to what the readers confirmed (for bash: before the first glued line).
    expect(sharedStart("bash", child, [outline("bash", parent, parent.entries[20]!.startIndex)])?.row).toBe(20);
    // The latest of several; never one of another grammar.
    expect(sharedStart("bash", child, [outline("bash", parent, parent.entries[20]!.startIndex), ...earlier])?.row).toBe(30);
    expect(sharedStart("bash", child, [outline("python", parent)])).toBeNull();
  });

  it("resumes the same script at its last statement (a helper a child keeps as it was)", () => {
    const parent = lines(40);
    expect(sharedStart("bash", parent.text, [outline("bash", parent)])).toEqual({ at: parent.entries[39]!.startIndex, row: 39, entries: parent.entries.slice(0, 39) });
    expect(sharedStart("bash", parent.text, [outline("bash", parent, parent.entries[20]!.startIndex)])?.row).toBe(20);
  });

  it("never resumes where the next character would continue the statement before", () => {
    const parent = lines(30);
    const earlier = [outline("bash", parent)];
    const at = parent.entries[25]!.startIndex;
    for (const start of ["| sort", "&& true", "} ", ") ", "\\cp -f a b", " indented", "; x", "> out"]) {
      const found = sharedStart("bash", `${parent.text.slice(0, at)}${start}\n`, earlier);
      // It falls back to an earlier boundary, never this one.
      expect(found?.at, start).toBeLessThan(at);
    }
    expect(sharedStart("bash", `${parent.text.slice(0, at)}echo fine\n`, earlier)?.at).toBe(at);
  });

  it("needs a line start after whitespace only, a long enough shared start, and the script's outline", () => {
    const parent = lines(30);
    // Line 20's statement does not start its line (`a; b` on one line): no boundary there.
    const entries = parent.entries.map((e, i) => (i === 20 ? { ...e, startIndex: e.startIndex + 1 } : e));
    const earlier = [outline("bash", { text: parent.text, entries })];
    const at20 = parent.entries[20]!.startIndex;
    const child = `${parent.text.slice(0, at20 + 2)}X${parent.text.slice(at20 + 2)}`;
    expect(sharedStart("bash", child, earlier)?.row).toBe(19);
    // Too little shared; another script.
    expect(sharedStart("bash", `X${parent.text}`, earlier)).toBeNull();
    expect(sharedStart("bash", child, [outline("bash", lines(30, "printf row"))])).toBeNull();
    const short = lines(3);
    expect(sharedStart("bash", `${short.text}echo more\n`, [outline("bash", short)])).toBeNull();
  });

  it("does not resume a Python file at a comment or an indented line", () => {
    const parent = lines(30, "x = 'line'  #");
    const earlier = [outline("python", parent)];
    const at = parent.entries[25]!.startIndex;
    expect(sharedStart("python", `${parent.text.slice(0, at)}# a comment\n`, earlier)?.at).toBeLessThan(at);
    expect(sharedStart("python", `${parent.text.slice(0, at)}    y = 1\n`, earlier)?.at).toBeLessThan(at);
    expect(sharedStart("python", `${parent.text.slice(0, at)}def test_x():\n    pass\n`, earlier)?.at).toBe(at);
  });
});

describe("sharedAround", () => {
  const parent = lines(40, "x = 'line'  #");
  const earlier = [outlineOf("python", parent.text, parent.entries, parent.text.length)];
  const at3 = parent.entries[3]!.startIndex;
  const inserted = "import subprocess\n";
  const tail = "def test_new():\n    assert True\n";
  const child = `${parent.text.slice(0, at3)}${inserted}${parent.text.slice(at3)}${tail}`;

  it("finds the run of the parent's statements after a line inserted near the top", () => {
    const shift = inserted.length;
    const last = parent.entries[39]!;
    expect(sharedAround("python", child, earlier, sharedStart("python", child, earlier))).toEqual({
      head: { at: at3, row: 3, entries: parent.entries.slice(0, 3) },
      from: at3 + shift,
      fromRow: 4,
      // The run ends before the parent's last statement, so that the rest has a statement start.
      to: last.startIndex + shift,
      toRow: 40,
      entries: parent.entries.slice(3, 39).map((e) => ({ ...e, startIndex: e.startIndex + shift, endIndex: e.endIndex + shift, startRow: e.startRow + 1 })),
    });
  });

  it("only for Python, and only when it saves more than a shared start does", () => {
    expect(sharedAround("bash", child, [outlineOf("bash", parent.text, parent.entries, parent.text.length)], null)).toBeNull();
    const appended = `${parent.text}${tail}`;
    expect(sharedAround("python", appended, earlier, sharedStart("python", appended, earlier))).toBeNull();
    // The run must resume at a statement start: not after an indented line joined onto it.
    const joined = `${parent.text.slice(0, at3)}if x:\n    ${parent.text.slice(at3)}`;
    expect(sharedAround("python", joined, earlier, null)?.from).not.toBe(at3 + "if x:\n    ".length);
  });
});

describe("outlineOf", () => {
  it("packs a script's top-level children and gives them back", () => {
    const entries = [entry(0, 10, 0), { type: "&", isNamed: false, startIndex: 11, endIndex: 12, startRow: 0 }, entry(13, 40, 1, "comment"), entry(41, 90, 2, "if_statement")];
    const packed = outlineOf("bash", "x".repeat(100), entries, 50);
    expect(entriesOf(packed, 4)).toEqual(entries);
    expect(entriesOf(packed, 2)).toEqual(entries.slice(0, 2));
    expect(packed.confirmedUpTo).toBe(50);
  });

  it("keeps the statements' keys, so that a script resuming from it takes the same strings", () => {
    const parent = lines(40);
    const keyed = parent.entries.map((e) => ({ ...e, key: `command\u0000${parent.text.slice(e.startIndex, e.endIndex)}` }));
    const earlier = [outlineOf("bash", parent.text, keyed, parent.text.length)];
    const at30 = parent.entries[30]!.startIndex;
    const shared = sharedStart("bash", `${parent.text.slice(0, at30)}rm -rf /tmp/x\n`, earlier);
    expect(shared?.entries.map((e) => e.key)).toEqual(keyed.slice(0, 30).map((e) => e.key));
    expect(shared?.entries[29]?.key).toBe(earlier[0]!.keys[29]);
  });
});

describe("commonPrefix", () => {
  it("is the length of the common start", () => {
    const next = random(9);
    for (let k = 0; k < 300; k++) {
      const base = Array.from({ length: Math.floor(next() * 500) }, () => "ab\n🙂"[Math.floor(next() * 4)]).join("");
      const cut = Math.floor(next() * (base.length + 1));
      const other = `${base.slice(0, cut)}${next() < 0.5 ? "Z" : ""}${base.slice(cut, cut + Math.floor(next() * 10))}`;
      let expected = 0;
      while (expected < Math.min(base.length, other.length) && base[expected] === other[expected]) expected++;
      expect(commonPrefix(base, other)).toBe(expected);
    }
  });
});
