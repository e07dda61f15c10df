import { describe, expect, it } from "vitest";
import { verdictOf } from "./verdict";

describe("verdictOf", () => {
  it("expects full reward of oracle and repeat runs, zero of no-op and parent-solution runs", () => {
    expect(verdictOf("oracle", 1, null)).toBe("as-expected");
    expect(verdictOf("repeat", 0.5, null)).toBe("unexpected");
    expect(verdictOf("nop", 0, null)).toBe("as-expected");
    expect(verdictOf("nop", 0.25, null)).toBe("unexpected");
    expect(verdictOf("parent-solution", 1, null)).toBe("unexpected");
    expect(verdictOf("parent-solution", 0, null)).toBe("as-expected");
  });

  it("tells infrastructure errors and missing rewards apart from verdicts", () => {
    expect(verdictOf("oracle", null, "SandboxBuildFailedError")).toBe("infra-error");
    expect(verdictOf("nop", null, null)).toBe("no-reward");
    expect(verdictOf("oracle", 0, "AgentTimeoutError")).toBe("unexpected");
  });

  it("judges no model run", () => {
    expect(verdictOf("agent", 0.3, null)).toBe("agent");
  });
});
