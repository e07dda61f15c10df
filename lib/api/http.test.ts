// JSON answers through the compression middleware `next start` puts in front of every response,
// written the way Next writes a route's body (streamed: headers first, no Content-Length).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { COMPRESS_FROM_BYTES, json } from "./http";

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => Middleware;

describe("json answers behind next start's compression", () => {
  let server: http.Server;
  let answer: Response;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      compression()(req, res, () => {});
      res.statusCode = answer.status;
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      void answer.arrayBuffer().then((bytes) => {
        res.write(Buffer.from(bytes));
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function fetchRaw(response: Response): Promise<{ encoding: string | undefined; body: unknown; cacheControl: string | undefined }> {
    answer = response;
    return new Promise((resolve, reject) => {
      http
        .get({ port: (server.address() as AddressInfo).port, host: "127.0.0.1", headers: { "accept-encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const raw = Buffer.concat(chunks);
            const encoding = res.headers["content-encoding"];
            resolve({ encoding, body: JSON.parse((encoding === "gzip" ? gunzipSync(raw) : raw).toString("utf8")), cacheControl: res.headers["cache-control"] });
          });
        })
        .on("error", reject);
    });
  }

  test("a small answer goes out as it is, still never cached", async () => {
    const data = { queue_id: 1, current: { task_id: 7 }, left: 3 };
    const got = await fetchRaw(json(data, { status: 201 }));
    expect(got).toEqual({ encoding: undefined, body: data, cacheControl: "no-store, no-transform" });
  });

  test("a large answer is gzipped", async () => {
    const data = { items: Array.from({ length: 400 }, (_, i) => ({ id: i, ext_id: `r05-${i}`, note: "some words" })) };
    expect(JSON.stringify(data).length).toBeGreaterThan(COMPRESS_FROM_BYTES);
    const got = await fetchRaw(json(data));
    expect(got).toEqual({ encoding: "gzip", body: data, cacheControl: "no-store" });
  });

  test("a caller's headers still win", async () => {
    const res = json({ ok: true }, { headers: { "cache-control": "private" } });
    expect(res.headers.get("cache-control")).toBe("private");
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});
