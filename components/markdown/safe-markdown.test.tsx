import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SafeMarkdown } from "./safe-markdown";

const render = (md: string) => renderToStaticMarkup(<SafeMarkdown source={md} />);

describe("SafeMarkdown", () => {
  it("renders raw HTML as inert code, never as elements", () => {
    const html = render('Hello <img src=x onerror="alert(1)"> there\n\n<script>alert(2)</script>\n');
    expect(html).not.toMatch(/<(script|img)\b|onerror="/i);
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html).toContain("<code>&lt;img src=x onerror=");
  });

  it("follows only http(s) links, with a safe rel", () => {
    const html = render("[a](https://example.com/x) [b](javascript:alert(1)) [c](data:text/html,hi) [d](./rel.md)");
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).not.toMatch(/javascript:|data:text/);
  });

  it("does not load images but shows their alt text", () => {
    const html = render("![diagram of the pipeline](https://tracker.example/pixel.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain("diagram of the pipeline");
  });

  it("marks invisible characters in text", () => {
    const html = render("access\u202E level \u200B ok");
    expect(html).toContain('class="inv-mark"');
    expect(html).toContain(">RLO<");
    expect(html).toContain(">ZWSP<");
  });

  it("keeps GFM tables and fenced code", () => {
    const html = render("| a | b |\n|---|---|\n| 1 | 2 |\n\n```bash\necho hi\n```\n");
    expect(html).toContain("<table>");
    expect(html).toContain("echo hi");
  });
});
