// Exports through the data layer and the route: exactly the filter's tasks, every byte as
// imported, a manifest whose hashes are the bytes', one audit row, admins only.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { and, eq, inArray } from "drizzle-orm";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useDatabase } from "@/db/client";
import { findTaskIds } from "@/db/queries/tasks";
import { createToken } from "@/db/queries/tokens";
import { auditLog, tasks } from "@/db/schema";
import { BACKENDS, createTestDatabase, type TestDatabase } from "@/db/testing";
import { canonicalFilter } from "@/lib/api/bulk-schemas";
import { CLI_ACTOR, type Actor } from "@/lib/auth/actor";
import type { ExportFormat } from "@/lib/export/write";
import { ingestPath } from "@/lib/ingest";
import { writeAwkwardBytes, writeFixtureRun } from "@/lib/ingest/fixtures";
import { GET } from "@/app/api/v1/export/route";
import { startExport } from "./export";

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const READER: Actor = { kind: "user", id: "r", label: "reviewer@example.org", role: "reviewer", userId: null };
const VIEWER: Actor = { kind: "user", id: "v", label: "viewer@example.org", role: "viewer", userId: null };

async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c);
  return Buffer.concat(chunks);
}

async function untar(gz: Buffer): Promise<{ name: string; mode: number; body: Buffer }[]> {
  const out: { name: string; mode: number; body: Buffer }[] = [];
  const extract = tar.extract();
  const done = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      out.push({ name: entry.header.name, mode: entry.header.mode ?? 0, body: Buffer.concat(chunks) });
    }
  })();
  Readable.from([gunzipSync(gz)]).pipe(extract);
  await done;
  return out;
}

/** Every file of a fixture task on disk, by its path inside the task. */
function filesOnDisk(dir: string, id: string): Map<string, Buffer> {
  const root = path.join(dir, "tasks", id);
  const out = new Map<string, Buffer>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.set(r, fs.readFileSync(path.join(root, r)));
    }
  };
  walk("");
  return out;
}

describe.each(BACKENDS)("exports on %s", (backend) => {
  let database: TestDatabase;
  let dirA = "";
  let dirB = "";
  let token = { admin: "", reviewer: "" };

  const exportOf = async (search: string, format: ExportFormat, actor: Actor = CLI_ACTOR) => {
    const c = canonicalFilter(search);
    if (!c.ok) throw new Error(c.message);
    const started = await startExport(actor, { filter: c.filter, search: c.search, format });
    return { ...started, bytes: await collect(started.body) };
  };

  beforeAll(async () => {
    database = await createTestDatabase(backend);
    useDatabase(database);
    dirA = writeFixtureRun("ex-a");
    // Bytes that are not UTF-8, and text with a NUL: both must leave exactly as they came.
    writeAwkwardBytes(dirA);
    dirB = writeFixtureRun("ex-b");
    await ingestPath(database.db, dirA);
    await ingestPath(database.db, dirB);
    token = {
      admin: (await createToken(database.db, { name: "export-admin", role: "admin" }, CLI_ACTOR)).token,
      reviewer: (await createToken(database.db, { name: "export-reviewer", role: "reviewer" }, CLI_ACTOR)).token,
    };
  });
  afterAll(async () => {
    await database?.close();
    for (const d of [dirA, dirB]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  test("Harbor: the filter's tasks as directories, byte for byte, then a manifest of their hashes; audited", async () => {
    const exp = await exportOf("run=ex-a&status=accepted&sort=-round&limit=2", "harbor");
    expect(exp.count).toBe(4);
    const entries = await untar(exp.bytes);
    const root = entries[0]?.name.split("/")[0] ?? "";
    expect(root).toMatch(/^rst-export-\d{8}T\d{6}Z$/);
    expect(entries.at(-1)?.name).toBe(`${root}/manifest.json`);
    const files = entries.slice(0, -1);
    // Every page's tasks, not only two, in round order; the rejected a2 and the other run left out.
    const ids = [...new Set(files.map((e) => e.name.split("/").slice(1, 3).join("/")))];
    expect(ids).toEqual(["ex-a/s1", "ex-a/s2", "ex-a/a1", "ex-a/b1"]);
    for (const id of ["s1", "s2", "a1", "b1"]) {
      const disk = filesOnDisk(dirA, id);
      const exported = new Map(files.filter((e) => e.name.startsWith(`${root}/ex-a/${id}/`)).map((e) => [e.name.slice(`${root}/ex-a/${id}/`.length), e]));
      expect([...exported.keys()].sort()).toEqual([...disk.keys()].sort());
      for (const [p, bytes] of disk) {
        expect(exported.get(p)?.body.equals(bytes), `${id}/${p}`).toBe(true);
        expect(exported.get(p)?.mode).toBe(p.endsWith(".sh") ? 0o755 : 0o644);
      }
    }
    const manifest = JSON.parse(entries.at(-1)?.body.toString("utf8") ?? "{}");
    expect(manifest).toMatchObject({ format: "rst-curator-export", version: 1, layout: "harbor", filter: "run=ex-a&status=accepted", count: 4, files: files.length });
    expect(manifest.bytes).toBe(files.reduce((n, e) => n + e.body.length, 0));
    expect(manifest.tasks.map((t: { id: string; parent_id: string | null }) => [t.id, t.parent_id])).toEqual([["s1", null], ["s2", null], ["a1", "s1"], ["b1", "a1"]]);
    for (const t of manifest.tasks as { run: string; id: string; files: { path: string; sha256: string; size: number }[] }[]) {
      for (const f of t.files) {
        const e = files.find((x) => x.name === `${root}/${t.run}/${t.id}/${f.path}`);
        expect(e && sha256(e.body)).toBe(f.sha256);
        expect(e?.body.length).toBe(f.size);
      }
    }
    const audit = await database.db.select().from(auditLog).where(and(eq(auditLog.action, "export"), eq(auditLog.targetId, "run=ex-a&status=accepted")));
    expect(audit.map((a) => [a.actorLabel, a.details])).toEqual([["command line", { filter: "run=ex-a&status=accepted", format: "harbor", count: 4 }]]);
  });

  test("JSONL: one line per task in the shape of FORMATS.md §6, text as text, other bytes as base64, hashes inline", async () => {
    const exp = await exportOf("", "jsonl");
    const lines = exp.bytes.toString("utf8").trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(exp.count).toBe(10);
    expect(lines.map((l) => `${l.metadata.run}/${l.id}`)).toEqual(["ex-a", "ex-b"].flatMap((r) => ["s1", "s2", "a1", "a2", "b1"].map((id) => `${r}/${id}`)));
    const a1 = lines.find((l) => l.metadata.run === "ex-a" && l.id === "a1");
    expect(a1).toMatchObject({ round: 1, parent_id: "s1", status: "accepted", metadata: { operator: "append-step", review: "unreviewed", solver: { model: "solver-x", k: 4, n: 8 } } });
    expect(a1.files["tests/data.txt"]).toBe("left\0right\n");
    const b1 = lines.find((l) => l.metadata.run === "ex-a" && l.id === "b1");
    expect(b1.files["environment/blob.bin"]).toBeUndefined();
    expect(Buffer.from(b1.files_base64["environment/blob.bin"], "base64").equals(Buffer.from([0xff, 0x00, 0xfe, 0x41]))).toBe(true);
    for (const l of lines.filter((x) => x.metadata.run === "ex-a")) {
      const disk = filesOnDisk(dirA, l.id);
      expect(Object.keys(l.sha256).sort()).toEqual([...disk.keys()].sort());
      for (const [p, bytes] of disk) {
        const exported = l.files[p] !== undefined ? Buffer.from(l.files[p], "utf8") : Buffer.from(l.files_base64[p], "base64");
        expect(exported.equals(bytes), `${l.id}/${p}`).toBe(true);
        expect(l.sha256[p]).toBe(sha256(bytes));
      }
    }
  });

  test("flag=none and flag=any split the tasks between them", async () => {
    const [id] = (await findTaskIds(database.db, "ex-b", ["a1"])).values();
    await database.db.update(tasks).set({ openFlags: 2 }).where(inArray(tasks.id, [id ?? 0]));
    const none = await exportOf("run=ex-b&flag=none", "jsonl");
    const any = await exportOf("run=ex-b&flag=any", "jsonl");
    const idsOf = (b: Buffer) => b.toString("utf8").trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
    expect(idsOf(any.bytes)).toEqual(["a1"]);
    expect(idsOf(none.bytes)).toEqual(["s1", "s2", "a2", "b1"]);
  });

  test("admins only: a reviewer or a viewer is refused before anything is chosen", async () => {
    const c = canonicalFilter("run=ex-a");
    if (!c.ok) throw new Error(c.message);
    for (const actor of [READER, VIEWER]) await expect(startExport(actor, { filter: c.filter, search: c.search, format: "jsonl" })).rejects.toMatchObject({ status: 403 });
    await expect(startExport(null, { filter: c.filter, search: c.search, format: "jsonl" })).rejects.toMatchObject({ status: 401 });
  });

  describe("the route", () => {
    const get = (query: string, bearer: string) =>
      GET(new Request(`http://localhost:3000/api/v1/export?${query}`, { headers: { host: "localhost:3000", authorization: `Bearer ${bearer}` } }), {
        params: Promise.resolve({}),
      });

    test("streams a download with its count; a reviewer's token, an unknown key and an unknown format are refused", async () => {
      const res = await get("run=ex-b&round=1&format=harbor", token.admin);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("x-export-count")).toBe("2");
      expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="rst-export-\d{8}T\d{6}Z\.tar\.gz"$/);
      const names = (await untar(Buffer.from(await res.arrayBuffer()))).map((e) => e.name.split("/").slice(1).join("/"));
      expect(names.filter((n) => n.endsWith("solution/solve.sh"))).toEqual(["ex-b/a1/solution/solve.sh", "ex-b/a2/solution/solve.sh"]);

      const jsonl = await get("run=ex-b&round=0&format=jsonl", token.admin);
      expect(jsonl.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
      expect((await jsonl.text()).trimEnd().split("\n")).toHaveLength(2);

      expect((await get("run=ex-b", token.reviewer)).status).toBe(403);
      const misspelt = await get("run=ex-b&stauts=accepted", token.admin);
      expect(misspelt.status).toBe(400);
      expect(await misspelt.json()).toMatchObject({ error: { code: "bad_filter", message: "unknown filter key: stauts" } });
      expect((await get("run=ex-b&format=zip", token.admin)).status).toBe(400);
    });
  });
});
