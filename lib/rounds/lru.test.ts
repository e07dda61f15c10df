import { describe, expect, it } from "vitest";
import { Lru } from "./lru";

describe("Lru", () => {
  it("evicts the least recently used entry beyond its capacity", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1);
    lru.set("c", 3);
    expect(lru.get("b")).toBeUndefined();
    expect([lru.get("a"), lru.get("c"), lru.size]).toEqual([1, 3, 2]);
  });

  it("bounds the total weight when given one, and refuses a value heavier than the whole", () => {
    const lru = new Lru<string, string>(10, (v) => v.length);
    lru.set("a", "xxxx");
    lru.set("b", "yyyy");
    lru.set("a", "xxxxx"); // replacing counts the new weight only
    expect(lru.size).toBe(2);
    lru.set("c", "zz");
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("xxxxx");
    lru.set("d", "w".repeat(11));
    expect(lru.get("d")).toBeUndefined();
    expect(lru.size).toBe(2);
  });
});
