import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { logDownloadUrl, logPageUrl, logSearchQuery, logWindowQuery, type Fetcher } from "./logs";

function fakeFetcher(): { fetcher: Fetcher; paths: string[] } {
  const paths: string[] = [];
  const fetcher = (async (path: string) => {
    paths.push(path);
    return { ok: true };
  }) as Fetcher;
  return { fetcher, paths };
}

describe("log queries", () => {
  const ref = { trialId: 7, name: "verifier/test stdout#1.txt" };

  it("ask for one window of 1,000 lines, the name's slashes kept and its parts encoded", async () => {
    const { fetcher, paths } = fakeFetcher();
    const client = new QueryClient();
    await client.fetchQuery(logWindowQuery(ref, 3, fetcher));
    expect(paths).toEqual(["/api/v1/trials/7/logs/verifier/test%20stdout%231.txt?from=3000&to=4000"]);
  });

  it("search with the toggles only when set, under a key of their own", async () => {
    const { fetcher, paths } = fakeFetcher();
    const client = new QueryClient();
    await client.fetchQuery(logSearchQuery(ref, { q: "a+b", regex: false, caseSensitive: false }, fetcher));
    await client.fetchQuery(logSearchQuery(ref, { q: "a+b", regex: true, caseSensitive: true }, fetcher));
    expect(paths).toEqual([
      "/api/v1/trials/7/logs/verifier/test%20stdout%231.txt?q=a%2Bb",
      "/api/v1/trials/7/logs/verifier/test%20stdout%231.txt?q=a%2Bb&regex=1&case=1",
    ]);
  });

  it("link to the raw bytes and to a line of the page", () => {
    expect(logDownloadUrl(ref)).toBe("/api/v1/trials/7/logs/verifier/test%20stdout%231.txt?download=1");
    expect(logPageUrl(ref, 12)).toBe("/trials/7/logs/verifier/test%20stdout%231.txt#L12");
  });
});
