// Synchronous, counted file output. Each directory is created exactly once by its owner (no
// recursive mkdir storms), which keeps ~2 million small writes within the time budget.
import fs from "node:fs";
import path from "node:path";

export class TreeWriter {
  files = 0;
  bytes = 0;

  constructor(readonly root: string) {}

  /** Creates `rel` under the root; its parent must already exist. */
  dir(rel: string): string {
    const abs = path.join(this.root, rel);
    fs.mkdirSync(abs);
    return abs;
  }

  /** Writes `text` to `abs` (an absolute path inside a directory this writer created). */
  file(abs: string, text: string): void {
    fs.writeFileSync(abs, text);
    this.files++;
    this.bytes += Buffer.byteLength(text);
  }
}

/** An append-only JSONL file kept open for the whole run. */
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
