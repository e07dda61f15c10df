import { describe, expect, test } from "vitest";
import { csvCell, safeFileName, toCsv } from "./csv";

describe("CSV export", () => {
  test("quotes commas, quotes and line breaks; leaves plain cells alone", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  test("numbers as written, missing and non-finite values empty", () => {
    expect(csvCell(0.125)).toBe("0.125");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell(Number.NaN)).toBe("");
  });

  test("untrusted text cannot become a spreadsheet formula", () => {
    expect(csvCell("=HYPERLINK(\"x\")")).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("@cmd")).toBe("'@cmd");
    expect(csvCell("-2")).toBe("'-2");
  });

  test("a header row, one line per row, CRLF line ends", () => {
    const csv = toCsv(
      [
        { header: "round", value: (r: { round: number; reason: string | null }) => r.round },
        { header: "reason", value: (r) => r.reason },
      ],
      [
        { round: 1, reason: "oracle_failed" },
        { round: 2, reason: null },
      ],
    );
    expect(csv).toBe("round,reason\r\n1,oracle_failed\r\n2,\r\n");
  });

  test("file names keep only safe characters", () => {
    expect(safeFileName("demo", "../etc/passwd", "counts")).toBe("demo_..-etc-passwd_counts");
    expect(safeFileName("a b", "c")).toBe("a-b_c");
    expect(safeFileName("///")).toBe("chart");
  });
});
