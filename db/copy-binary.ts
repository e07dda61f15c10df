// Rows in PostgreSQL's binary COPY format (`COPY … FROM STDIN (FORMAT binary)`): a signature, then
// per row the field count and each field as a length and its bytes in the type's binary form
// (its `recv` function's input), then -1. Nothing is escaped and nothing is parsed as text on
// either side: the import's largest table, task_search, arrives this way (db/queries/ingest.ts).

/** PGCOPY\n\377\r\n\0, then flags and the header extension length (both 0). */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
/** int4's type oid, which an int4[]'s binary form names */
const INT4_OID = 23;

/** A field's value and how it is sent (`text` for any text-like column: text, varchar). */
export type CopyField =
  | { int4: number }
  | { float8: number }
  | { bool: boolean }
  | { text: string }
  /** bytes already in the column type's binary form (a tsvector: lib/ingest/search-vector.ts) */
  | { raw: Uint8Array }
  | { int4s: ArrayLike<number> }
  | null;

/** Builds one COPY stream's bytes; `end` returns them. */
export class BinaryCopy {
  private buf: Buffer;
  private at = 0;
  rows = 0;

  constructor(
    private readonly fields: number,
    sizeHint = 64 * 1024,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(sizeHint, 64));
    this.bytes(SIGNATURE);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }

  private int16(v: number): void {
    this.room(2);
    this.buf.writeInt16BE(v, this.at);
    this.at += 2;
  }

  private int32(v: number): void {
    this.room(4);
    this.buf.writeInt32BE(v, this.at);
    this.at += 4;
  }

  private bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  row(values: readonly CopyField[]): void {
    if (values.length !== this.fields) throw new Error(`a COPY row has ${this.fields} fields, not ${values.length}`);
    this.int16(this.fields);
    for (const v of values) {
      if (v === null) this.int32(-1);
      else if ("int4" in v) {
        if (!Number.isInteger(v.int4) || v.int4 < -0x80000000 || v.int4 > 0x7fffffff) throw new Error(`not an int4: ${v.int4}`);
        this.int32(4);
        this.int32(v.int4);
      } else if ("float8" in v) {
        this.int32(8);
        this.room(8);
        this.buf.writeDoubleBE(v.float8, this.at);
        this.at += 8;
      } else if ("bool" in v) {
        this.int32(1);
        this.room(1);
        this.buf[this.at++] = v.bool ? 1 : 0;
      } else if ("text" in v) {
        const n = Buffer.byteLength(v.text, "utf8");
        this.int32(n);
        this.room(n);
        this.at += this.buf.write(v.text, this.at, "utf8");
      } else if ("raw" in v) {
        this.int32(v.raw.length);
        this.bytes(v.raw);
      } else {
        const n = v.int4s.length;
        // ndim, has-nulls, element type, then (length, lower bound) per dimension; none when empty
        this.int32(n === 0 ? 12 : 20 + 8 * n);
        this.int32(n === 0 ? 0 : 1);
        this.int32(0);
        this.int32(INT4_OID);
        if (n > 0) {
          this.int32(n);
          this.int32(1);
          for (let i = 0; i < n; i++) {
            this.int32(4);
            this.int32(v.int4s[i] as number);
          }
        }
      }
    }
    this.rows++;
  }

  /** Bytes so far. */
  get size(): number {
    return this.at;
  }

  /** The stream's bytes, trailer included; the builder is spent. */
  end(): Buffer {
    this.int16(-1);
    return this.buf.subarray(0, this.at);
  }
}
