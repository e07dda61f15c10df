import { describe, expect, test } from "vitest";
import { parseTaskFilter, taskFilterToSearch } from "./filter";

describe("task filter: seed family and rejection reason", () => {
  test("parse from the URL and write back unchanged", () => {
    const parsed = parseTaskFilter(new URLSearchParams("run=demo&root=12&reason=oracle_failed&status=rejected"));
    expect(parsed).toMatchObject({ ok: true, filter: { run: "demo", root: 12, reason: "oracle_failed", status: "rejected" } });
    if (!parsed.ok) return;
    expect(taskFilterToSearch(parsed.filter)).toBe("reason=oracle_failed&root=12&run=demo&status=rejected");
  });

  test("a root that is not a database id is refused, an empty one ignored", () => {
    expect(parseTaskFilter(new URLSearchParams("root=abc")).ok).toBe(false);
    expect(parseTaskFilter(new URLSearchParams("root=0")).ok).toBe(false);
    expect(parseTaskFilter(new URLSearchParams("root=&reason=")).ok).toBe(true);
    expect(parseTaskFilter(new URLSearchParams(`reason=${"x".repeat(201)}`)).ok).toBe(false);
  });
});
