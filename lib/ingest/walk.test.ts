// The directory walk every native, Harbor and task-folder import reads its files with: exact bytes
// whatever the size (a file longer than the first read is read in parts), links and special files
// refused by name, nothing past the size limit.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IssueList } from "./errors";
import { MAX_FILE_BYTES, readTree } from "./walk";

describe("readTree", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "rst-walk-"));
  const KB = 1024;
  // Around the first read's 256 kB and the doublings after it, and small ones that share a pool.
  const sizes = [0, 1, 4095, 4096, 8193, 256 * KB - 1, 256 * KB, 256 * KB + 1, 512 * KB, 512 * KB + 7, 3 * 1024 * KB + 5];
  const written = new Map<string, Buffer>();

  beforeAll(() => {
    fs.mkdirSync(path.join(root, "tree", "sub", "deeper"), { recursive: true });
    sizes.forEach((size, i) => {
      const rel = i % 2 === 0 ? `f${i}.bin` : `sub/${i % 3 === 0 ? "deeper/" : ""}f${i}.bin`;
      const bytes = crypto.randomBytes(size);
      fs.writeFileSync(path.join(root, "tree", rel), bytes);
      written.set(rel, bytes);
    });
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it("reads every file's exact bytes, sorted by path, whatever its size", () => {
    const issues = new IssueList();
    const files = readTree(path.join(root, "tree"), issues, "tree");
    expect(issues.items).toEqual([]);
    expect(files.map((f) => f.rel)).toEqual([...written.keys()].sort());
    for (const f of files) {
      const want = written.get(f.rel)!;
      expect(f.bytes.length, f.rel).toBe(want.length);
      expect(f.bytes.equals(want), f.rel).toBe(true);
    }
    // Each file its own bytes: a later read does not overwrite an earlier file's.
    const again = readTree(path.join(root, "tree"), new IssueList(), "tree");
    expect(files.every((f, i) => f.bytes.equals(again[i]!.bytes))).toBe(true);
  });

  it("names links and special files, reads the rest, and never waits on a FIFO", () => {
    const dir = path.join(root, "odd");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "a.txt"), "a\n");
    fs.symlinkSync("/etc/hostname", path.join(dir, "link"));
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    const issues = new IssueList();
    const files = readTree(dir, issues, "odd");
    expect(files.map((f) => [f.rel, f.bytes.toString()])).toEqual([["a.txt", "a\n"]]);
    expect(issues.items.map((i) => [i.file, i.message])).toEqual([
      ["odd/link", "symbolic links are not imported"],
      ["odd/pipe", "not a regular file"],
    ]);
  });

  it("refuses a file past the size limit, and keeps one exactly at it", () => {
    const dir = path.join(root, "big");
    fs.mkdirSync(dir);
    const at = path.join(dir, "at.bin");
    const over = path.join(dir, "over.bin");
    // Sparse files: the limit's bytes without writing them.
    fs.closeSync(fs.openSync(at, "w"));
    fs.truncateSync(at, MAX_FILE_BYTES);
    fs.closeSync(fs.openSync(over, "w"));
    fs.truncateSync(over, MAX_FILE_BYTES + 1);
    const issues = new IssueList();
    const files = readTree(dir, issues, "big");
    expect(files.map((f) => [f.rel, f.bytes.length])).toEqual([["at.bin", MAX_FILE_BYTES]]);
    expect(issues.items.map((i) => [i.file, i.message])).toEqual([["big/over.bin", `file is over the ${MAX_FILE_BYTES}-byte limit`]]);
  });
});
