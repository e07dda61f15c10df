import { describe, expect, it } from "vitest";
import { formatAgo, formatDateTime } from "./date";

describe("date formatting", () => {
  it("formats in UTC so server and browser agree", () => {
    expect(formatDateTime("2025-11-30T17:59:12.345Z")).toBe("2025-11-30 17:59 UTC");
    expect(formatDateTime("2025-11-30T19:59:12+02:00")).toBe("2025-11-30 17:59 UTC");
    expect(formatDateTime(null)).toBe("—");
    expect(formatDateTime("not a date")).toBe("—");
  });

  it("says how long ago against a given clock", () => {
    const now = new Date("2025-12-01T12:00:00Z");
    expect(formatAgo("2025-12-01T11:59:30Z", now)).toBe("just now");
    expect(formatAgo("2025-12-01T11:57:00Z", now)).toBe("3 minutes ago");
    expect(formatAgo("2025-11-30T12:00:00Z", now)).toBe("1 day ago");
  });
});
