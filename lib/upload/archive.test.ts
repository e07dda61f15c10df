import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { ArchiveError, DEFAULT_LIMITS, safeEntryPath, unpackArchive } from "./archive";

type Entry = { name: string; type?: NonNullable<tar.Header["type"]>; content?: string; linkname?: string };

async function tarball(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) {
    const header: Partial<tar.Header> & { name: string } = { name: e.name, type: e.type ?? "file", ...(e.linkname === undefined ? {} : { linkname: e.linkname }) };
    if ((e.type ?? "file") === "file") pack.entry({ ...header, size: Buffer.byteLength(e.content ?? "") }, e.content ?? "");
    else pack.entry(header);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const stream = (b: Buffer) => Readable.from([b]);

async function refused(entries: Entry[], message: RegExp, limits = DEFAULT_LIMITS): Promise<void> {
  const before = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("rst-upload-")).length;
  await expect(unpackArchive(stream(await tarball(entries)), limits)).rejects.toThrow(message);
  const after = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("rst-upload-")).length;
  expect(after).toBe(before); // nothing left behind
}

describe("run archives", () => {
  it("unpacks a tar and a tar.gz; a single top directory becomes the run directory", async () => {
    const entries: Entry[] = [{ name: "run/", type: "directory" }, { name: "run/run.json", content: "{}" }, { name: "run/tasks/a/instruction.md", content: "# hi" }];
    for (const body of [await tarball(entries), gzipSync(await tarball(entries))]) {
      const r = await unpackArchive(stream(body));
      expect(path.basename(r.dir)).toBe("run");
      expect(fs.readFileSync(path.join(r.dir, "tasks/a/instruction.md"), "utf8")).toBe("# hi");
      expect(r.files).toBe(2);
      fs.rmSync(r.root, { recursive: true, force: true });
    }
  });

  it("refuses traversal, absolute paths, links and devices, naming the entry", async () => {
    await refused([{ name: "ok.txt", content: "x" }, { name: "../evil.txt", content: "x" }], /\.\.\/evil\.txt: `\.\.` is not allowed/);
    await refused([{ name: "a/../../evil", content: "x" }], /not allowed/);
    await refused([{ name: "/etc/passwd", content: "x" }], /\/etc\/passwd: absolute paths/);
    await refused([{ name: "link", type: "symlink", linkname: "/etc" }], /link: symlink entries are not accepted/);
    await refused([{ name: "hard", type: "link", linkname: "ok.txt" }], /hard: link entries are not accepted/);
    await refused([{ name: "dev", type: "character-device" }], /character-device entries are not accepted/);
    await refused([{ name: "a.txt", content: "1" }, { name: "a.txt", content: "2" }], /a\.txt: the archive holds this name twice/);
    expect(() => safeEntryPath("a\\b", 16)).toThrow(ArchiveError);
  });

  it("caps entries, file size and inflated size (a bomb stops early)", async () => {
    const small = { ...DEFAULT_LIMITS, maxEntries: 2, maxFileBytes: 10, maxTotalBytes: 15 };
    await refused([{ name: "a", content: "1" }, { name: "b", content: "2" }, { name: "c", content: "3" }], /more than 2 entries/, small);
    await refused([{ name: "big", content: "x".repeat(11) }], /big: larger than 10 bytes/, small);
    await refused([{ name: "a", content: "x".repeat(9) }, { name: "b", content: "x".repeat(9) }], /inflates to more than 15 bytes/, small);
    const bomb = gzipSync(await tarball([{ name: "zeros", content: "\0".repeat(5_000_000) }]));
    expect(bomb.length).toBeLessThan(20_000);
    await expect(unpackArchive(stream(bomb), { ...DEFAULT_LIMITS, maxFileBytes: 1_000_000 })).rejects.toThrow(/zeros: larger than/);
  });

  it("a corrupt gzip or a non-archive is a clear error, not a crash", async () => {
    const good = gzipSync(await tarball([{ name: "a.txt", content: "x".repeat(100_000) }]));
    const corrupt = Buffer.concat([good.subarray(0, 200), Buffer.alloc(200, 7)]);
    await expect(unpackArchive(stream(corrupt))).rejects.toThrow(ArchiveError);
    await expect(unpackArchive(stream(Buffer.from("just some text, not a tar")))).rejects.toThrow(ArchiveError);
  });

  it("a JSONL body is kept as one file, byte for byte, within the size limit", async () => {
    const text = Buffer.from('\uFEFF \n{"id": "t"}\n{"id": "u"}\n');
    const r = await unpackArchive(Readable.from([text.subarray(0, 5), text.subarray(5)]));
    try {
      expect(fs.readdirSync(r.root)).toEqual(["upload.jsonl"]);
      expect(fs.readFileSync(path.join(r.root, "upload.jsonl")).equals(text)).toBe(true);
      expect(r).toMatchObject({ dir: r.root, files: 1, bytes: text.length });
    } finally {
      fs.rmSync(r.root, { recursive: true, force: true });
    }
    const before = fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("rst-upload-")).length;
    await expect(unpackArchive(stream(Buffer.from(`${'{"id": "t"}\n'.repeat(10)}`)), { ...DEFAULT_LIMITS, maxTotalBytes: 50 })).rejects.toThrow(/larger than 50 bytes/);
    expect(fs.readdirSync(os.tmpdir()).filter((d) => d.startsWith("rst-upload-")).length).toBe(before);
  });
});
