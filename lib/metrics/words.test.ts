import { describe, expect, it } from "vitest";
import { countInstructionWords } from "./words";

describe("countInstructionWords", () => {
  it("counts tokens with a letter or digit, not bare markdown punctuation", () => {
    const markdown = [
      "# Fix the build",
      "",
      "- Run `make test` and write the result to `/app/out.txt`.",
      "* 3 retries --- max",
      "",
      "```",
      "$ cat file",
      "```",
      "> Note: 日本語 too",
    ].join("\n");
    // Fix the build | Run `make test` and write the result to `/app/out.txt`. | 3 retries max
    // | cat file | Note: 日本語 too
    expect(countInstructionWords(markdown)).toBe(3 + 9 + 3 + 2 + 3);
  });

  it("splits on any whitespace, CRLF and tabs included", () => {
    expect(countInstructionWords("one\r\ntwo\tthree  four\n")).toBe(4);
  });

  it("is zero for empty or punctuation-only text", () => {
    expect(countInstructionWords("")).toBe(0);
    expect(countInstructionWords("  # - * ``` --- > |  ")).toBe(0);
  });
});
