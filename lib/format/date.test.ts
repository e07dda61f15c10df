import { describe, expect, it } from "vitest";
import { formatAgo, formatDateTime, formatDuration, spanMs } from "./date";

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

describe("formatDuration and spanMs", () => {
  it("reads like a person would say it", () => {
    expect(formatDuration(840)).toBe("840 ms");
    expect(formatDuration(12_430)).toBe("12.4 s");
    expect(formatDuration(185_000)).toBe("3m 05s");
    expect(formatDuration(3_720_000)).toBe("1h 02m");
    expect(formatDuration(null)).toBe("—");
  });
  it("measures only spans it can read", () => {
    expect(spanMs("2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z")).toBe(60_000);
    expect(spanMs("2026-01-01T00:01:00Z", "2026-01-01T00:00:00Z")).toBeNull();
    expect(spanMs("garbage", "2026-01-01T00:00:00Z")).toBeNull();
    expect(spanMs(null, "2026-01-01T00:00:00Z")).toBeNull();
  });
});
