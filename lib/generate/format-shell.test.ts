import { describe, expect, it } from "vitest";
import { breakPipelines } from "./format-shell";

describe("breakPipelines", () => {
  it("puts one pipeline stage per line when a pipeline is long", () => {
    const out = breakPipelines(`awk '{print $1}' "$LOG" | sort | uniq -c`);
    expect(out).toBe(`awk '{print $1}' "$LOG" \\\n  | sort \\\n  | uniq -c`);
    expect(breakPipelines(out)).toBe(out);
  });

  it("leaves quoted pipes, command substitutions, heredocs and short pipelines alone", () => {
    const script = [
      "grep -E 'a | b | c' file",
      'n=$(cut -d, -f1 f | sort | uniq | wc -l)',
      "cat > f <<'EOF'",
      "x | y | z",
      "EOF",
      "ls | wc -l",
    ].join("\n");
    expect(breakPipelines(script)).toBe(script);
  });

  it("turns one-line guards into if-blocks", () => {
    expect(breakPipelines('[ "$n" -gt 0 ] || { echo "empty" >&2; exit 1; }')).toBe('if ! [ "$n" -gt 0 ]; then\n  echo "empty" >&2\n  exit 1\nfi');
  });
});
