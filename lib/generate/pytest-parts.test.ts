import { describe, expect, it } from "vitest";
import { Part, pyRegex } from "./pytest-parts";

/** The pattern `re` receives from a raw string literal `r"..."` in the rendered line. */
function rawPattern(line: string): string {
  const m = /re\.search\(r"((?:[^"\\]|\\.)*)"/.exec(line);
  if (!m?.[1]) throw new Error(`no raw string in ${line}`);
  return m[1];
}

describe("Part.matches", () => {
  it("hands `re` the regular expression as written, backslashes included", () => {
    const part = new Part("/srv/app/manifest.sha512").isFile().matches("^[0-9a-f]{128}  \\./", "sha512 line").build();
    const line = part.lines.find((l) => l.includes("re.search")) ?? "";
    const pattern = rawPattern(line);
    expect(pattern).toBe("^[0-9a-f]{128}  \\./");
    // What sha512sum writes for a relative path matches; a backslash in the output is not needed.
    expect(new RegExp(pattern, "m").test(`${"ab".repeat(64)}  ./etc/app.conf\n`)).toBe(true);
  });

  it("shows the pattern in the failure as Python's repr would", () => {
    const part = new Part("/etc/htpasswd").matches("^app:\\$2y\\$10\\$", "bcrypt entry").build();
    expect(part.failure.join("\n")).toContain("('^app:\\\\$2y\\\\$10\\\\$', '', re.MULTILINE)");
  });

  it("refuses what a raw string cannot hold", () => {
    expect(() => pyRegex('^say "hi"$')).toThrow(/raw string/);
    expect(() => pyRegex("ends in \\")).toThrow(/raw string/);
    expect(pyRegex("ends in \\\\")).toBe('r"ends in \\\\"');
  });
});
