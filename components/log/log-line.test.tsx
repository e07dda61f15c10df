import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { displayLine } from "@/lib/log/lines";
import { LogLine, type LogLineProps } from "./log-line";

const base: LogLineProps = {
  number: 12,
  text: "",
  selected: false,
  wrap: false,
  gutterWidth: "4ch",
  downloadUrl: "/api/v1/trials/1/logs/x.txt?download=1",
  onSelect: () => {},
};
const render = (p: Partial<LogLineProps>) => renderToStaticMarkup(<LogLine {...base} {...p} />);

describe("LogLine", () => {
  it("links its number to #L<n> and marks itself when selected", () => {
    const html = render({ text: "hello", selected: true });
    expect(html).toContain('href="#L12"');
    expect(html).toContain('aria-current="location"');
  });

  it("renders hostile bytes as inert text: no link from the log, NUL as a marker, styles from the palette", () => {
    const line = displayLine("nul:\0 \x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\ \x1b[31;48;2;1;2;3m<img src=x onerror=alert(2)>\x1b[0m");
    const html = render({ text: line });
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt;");
    expect(html).toMatch(/class="inv-mark"[^>]*>NUL</);
    expect(html).toContain('class="ansi-fg-1"');
    expect(html).toContain("rgb(1 2 3)");
  });

  it("says where a long line was cut and points to the raw log", () => {
    const html = render({ text: "x".repeat(50), clippedChars: 10_485_760 });
    expect(html).toContain("line cut at 20,000 of 10,485,760 characters");
    expect(html).toContain('href="/api/v1/trials/1/logs/x.txt?download=1"');
  });

  it("highlights matches, the current one stronger", () => {
    const html = render({ text: "a FAILED b FAILED", matches: [{ line: 11, start: 2, end: 8 }, { line: 11, start: 11, end: 17 }], currentStart: 11 });
    expect(html.match(/<mark class="log-match"/g)).toHaveLength(1);
    expect(html.match(/<mark class="log-match log-match-current/g)).toHaveLength(1);
  });
});
