import { describe, expect, it } from "vitest";
import { flattenMetadata } from "./flatten";

describe("flattenMetadata", () => {
  it("turns nested tables into dotted keys and scalar arrays into lists", () => {
    expect(
      flattenMetadata({
        version: "1.0",
        metadata: { difficulty: "medium", tags: ["git", "bash"], estimate: 12 },
        verifier: { timeout_sec: 300.5, env: {} },
        ok: true,
      }),
    ).toEqual([
      { key: "version", value: "1.0" },
      { key: "metadata.difficulty", value: "medium" },
      { key: "metadata.tags", value: "git, bash" },
      { key: "metadata.estimate", value: "12" },
      { key: "verifier.timeout_sec", value: "300.5" },
      { key: "verifier.env", value: "{}" },
      { key: "ok", value: "true" },
    ]);
  });

  it("keeps arrays of tables as JSON and handles an empty object", () => {
    expect(flattenMetadata({ steps: [{ a: 1 }] })).toEqual([{ key: "steps", value: '[{"a":1}]' }]);
    expect(flattenMetadata({})).toEqual([]);
  });
});
