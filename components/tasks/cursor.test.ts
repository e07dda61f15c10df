import { describe, expect, it } from "vitest";
import { cursorOffset, offsetCursor } from "./cursor";

describe("cursor offsets", () => {
  it("round-trips the server's offset cursor", () => {
    expect(offsetCursor(150)).toBe(Buffer.from("o:150").toString("base64url"));
    expect(cursorOffset(Buffer.from("o:150").toString("base64url"))).toBe(150);
    expect(cursorOffset(undefined)).toBe(0);
    expect(offsetCursor(0)).toBeUndefined();
  });

  it("returns null for a cursor it does not understand", () => {
    expect(cursorOffset("not a cursor!")).toBeNull();
    expect(cursorOffset(Buffer.from("k:12").toString("base64url"))).toBeNull();
  });
});
