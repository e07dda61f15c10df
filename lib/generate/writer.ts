// Counted file output through a writer thread. Generating content is CPU work and creating two
// million small files is kernel work; doing the syscalls on a second thread lets the two overlap
// on a two-core machine. Each directory is created exactly once (no recursive mkdir storms).
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** The writer thread: applies batches of [0, dir] / [1, file, text] operations in order. */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const fs = require("node:fs");
parentPort.on("message", (ops) => {
  try {
    for (let i = 0; i < ops.length; ) {
      if (ops[i++] === 0) fs.mkdirSync(ops[i++]);
      else fs.writeFileSync(ops[i++], ops[i++]);
    }
    parentPort.postMessage(null);
  } catch (err) {
    parentPort.postMessage(String((err && err.stack) || err));
  }
});
`;

const BATCH_BYTES = 1 << 20;
const MAX_IN_FLIGHT = 6;

export class TreeWriter {
  files = 0;
  bytes = 0;
  private ops: (number | string)[] = [];
  private batchBytes = 0;
  private inFlight = 0;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private closed = false;
  private readonly worker: Worker;

  constructor(readonly root: string) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.on("message", (msg: string | null) => {
      this.inFlight--;
      if (msg !== null && !this.failure) this.failure = new Error(`writing the run failed: ${msg}`);
      this.wake?.();
    });
    this.worker.on("error", (err) => {
      this.failure ??= err;
      this.wake?.();
    });
    this.worker.on("exit", () => {
      if (this.inFlight > 0) this.failure ??= new Error("the writer thread stopped before finishing");
      this.closed = true;
      this.wake?.();
    });
  }

  /** Queues creation of `rel` under the root (its parent must be queued or exist); returns its path. */
  dir(rel: string): string {
    const abs = path.join(this.root, rel);
    this.ops.push(0, abs);
    return abs;
  }

  /** Queues writing `text` to `abs`, inside a directory this writer created. */
  file(abs: string, text: string): void {
    this.ops.push(1, abs, text);
    this.files++;
    const n = Buffer.byteLength(text);
    this.bytes += n;
    this.batchBytes += n + 200;
  }

  private send(): void {
    if (this.ops.length === 0 || this.closed) return;
    this.worker.postMessage(this.ops);
    this.ops = [];
    this.batchBytes = 0;
    this.inFlight++;
  }

  private async waitBelow(limit: number): Promise<void> {
    while (this.inFlight > limit && !this.failure) await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = null;
    if (this.failure) throw this.failure;
  }

  /** Hands a full batch to the writer thread, waiting while it is too far behind. */
  async pace(): Promise<void> {
    if (this.batchBytes < BATCH_BYTES && this.ops.length < 30_000) return;
    this.send();
    await this.waitBelow(MAX_IN_FLIGHT);
  }

  /** Waits until everything queued is on disk, then stops the writer thread. */
  async close(): Promise<void> {
    try {
      this.send();
      await this.waitBelow(0);
    } finally {
      await this.worker.terminate();
    }
  }
}

/** An append-only JSONL file, buffered in memory and written on the main thread. */
export class JsonlWriter {
  private readonly fd: number;
  private buffer: string[] = [];
  private pending = 0;

  constructor(private readonly writer: TreeWriter, file: string) {
    this.fd = fs.openSync(file, "w");
    writer.files++;
  }

  write(record: object): void {
    const line = JSON.stringify(record) + "\n";
    this.buffer.push(line);
    this.pending += line.length;
    if (this.pending > 1 << 16) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const text = this.buffer.join("");
    fs.writeSync(this.fd, text);
    this.writer.bytes += Buffer.byteLength(text);
    this.buffer = [];
    this.pending = 0;
  }

  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

/**
 * Prepares `out`: refuses a non-empty directory that is not an earlier generator output, clears
 * a stale `.partial`, and returns the staging directory to write into.
 */
export function prepareOutput(out: string): string {
  if (fs.existsSync(out)) {
    const stat = fs.statSync(out);
    if (!stat.isDirectory()) throw new Error(`${out} exists and is not a directory`);
    const entries = fs.readdirSync(out);
    if (entries.length > 0 && !entries.includes("run.json")) {
      throw new Error(`${out} is not empty and holds no run.json: refusing to overwrite it`);
    }
  }
  const staging = `${out}.partial`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(path.resolve(staging)), { recursive: true });
  fs.mkdirSync(staging);
  return staging;
}

/** Swaps the finished staging directory into place, replacing an earlier run. */
export function commitOutput(staging: string, out: string): void {
  if (fs.existsSync(out)) {
    const old = `${out}.old`;
    fs.rmSync(old, { recursive: true, force: true });
    fs.renameSync(out, old);
    fs.renameSync(staging, out);
    fs.rmSync(old, { recursive: true, force: true });
  } else {
    fs.renameSync(staging, out);
  }
}
