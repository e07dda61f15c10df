import { describe, expect, test } from "vitest";
import { DEFAULT_STATE, parseRoundsState, parseSlice, roundsStateToSearch, sliceKey, tasksHref } from "./url-state";

describe("Rounds URL state", () => {
  test("an empty URL is the default view", () => {
    expect(parseRoundsState(new URLSearchParams())).toEqual({ ...DEFAULT_STATE, run: undefined });
  });

  test("parses every choice and writes it back unchanged", () => {
    const search = "run=demo&compare=b%2Cc&baseline=3%2C7&category=data&operator=jq-summary&root=12&review=accepted&metric=commands&band=p10-p90&log=1";
    const state = parseRoundsState(new URLSearchParams(search));
    expect(state).toEqual({
      run: "demo",
      compare: ["b", "c"],
      baselines: [3, 7],
      slice: { category: "data", operator: "jq-summary", root: 12, review: "accepted" },
      metric: "commands",
      band: "p10-p90",
      log: true,
    });
    expect(parseRoundsState(new URLSearchParams(roundsStateToSearch(state)))).toEqual(state);
  });

  test("defaults stay out of the URL", () => {
    expect(roundsStateToSearch({ ...DEFAULT_STATE, run: "demo" })).toBe("run=demo");
  });

  test("unknown values fall back to defaults on the page", () => {
    const state = parseRoundsState({ metric: "nope", band: "x", log: "yes", review: "maybe", root: "-1" });
    expect(state.metric).toBe("solution_lines");
    expect(state.band).toBe("iqr");
    expect(state.log).toBe(false);
    expect(state.slice).toEqual({});
  });

  test("the API refuses a bad slice", () => {
    expect(parseSlice(new URLSearchParams("review=maybe")).ok).toBe(false);
    expect(parseSlice(new URLSearchParams("root=abc")).ok).toBe(false);
    expect(parseSlice(new URLSearchParams("category=&operator=x"))).toEqual({ ok: true, slice: { operator: "x" } });
  });

  test("compare drops the run itself, duplicates and blanks; baselines are ids", () => {
    expect(parseRoundsState({ run: "a", compare: "a,b,,b,c" }).compare).toEqual(["b", "c"]);
    expect(parseRoundsState({ baseline: "4,x,4,,0,-2,9" }).baselines).toEqual([4, 9]);
  });

  test("slice keys are stable whatever the order of fields", () => {
    expect(sliceKey({ category: "x", review: "accepted" })).toBe(sliceKey({ review: "accepted", category: "x" }));
    expect(sliceKey({})).not.toBe(sliceKey({ category: "x" }));
  });

  test("a bar opens the task table with the same filter, seed family and rejection reason included", () => {
    expect(tasksHref("demo", { category: "data", review: "unreviewed" }, 10, { status: "accepted" })).toBe(
      "/tasks?category=data&review=unreviewed&round=10&run=demo&status=accepted",
    );
    expect(tasksHref("demo", {}, 3, { status: "accepted", operator: "jq-summary" })).toBe("/tasks?operator=jq-summary&round=3&run=demo&status=accepted");
    expect(tasksHref("demo", { root: 5 }, 3, { status: "rejected", reason: "oracle_failed" })).toBe(
      "/tasks?reason=oracle_failed&root=5&round=3&run=demo&status=rejected",
    );
    expect(tasksHref("demo", { operator: "a" }, 3, { operator: "b" })).toBeNull();
  });
});
