// Builders for the pytest assertions operators and seeds put into tests/test_outputs.py.
// Each assertion also records the `E` lines pytest would print if it failed, so trial logs can
// show the real failure of the first assertion that breaks.
import type { TestCase, TestPart } from "./types";

/** A Python string literal; our paths and needles never hold quotes or backslashes. */
export const py = (s: string): string => JSON.stringify(s);

/** A regular expression as a Python raw string: its backslashes reach `re` as written. */
export function pyRegex(regex: string): string {
  if (regex.includes('"') || regex.includes("\n") || /(^|[^\\])(\\\\)*\\$/.test(regex)) throw new Error(`pyRegex: cannot be a raw string literal: ${regex}`);
  return `r"${regex}"`;
}

export class Part {
  private readonly body: string[] = [];
  private readonly failures: string[][] = [];
  private asserts = 0;
  private readonly v: string;

  constructor(readonly path: string, varName = "p") {
    this.v = varName;
    this.body.push(`${varName} = Path(${py(path)})`);
  }

  private add(lines: string[], failure: string[]): this {
    this.body.push(...lines);
    this.failures.push(failure);
    this.asserts++;
    return this;
  }

  isFile(): this {
    return this.add([`assert ${this.v}.is_file(), f"{${this.v}} is missing"`], [
      `AssertionError: ${this.path} is missing`,
      "assert False",
      " +  where False = is_file()",
      ` +    where is_file = PosixPath('${this.path}').is_file`,
    ]);
  }

  isDir(): this {
    return this.add([`assert ${this.v}.is_dir(), f"{${this.v}} is not a directory"`], [
      `AssertionError: ${this.path} is not a directory`,
      "assert False",
      " +  where False = is_dir()",
      ` +    where is_dir = PosixPath('${this.path}').is_dir`,
    ]);
  }

  nonEmpty(): this {
    return this.add([`assert ${this.v}.stat().st_size > 0, f"{${this.v}} is empty"`], [
      `FileNotFoundError: [Errno 2] No such file or directory: '${this.path}'`,
    ]);
  }

  /** Substrings that must appear in the text of the file. */
  contains(...needles: string[]): this {
    const lines = [`text = ${this.v}.read_text()`];
    for (const n of needles) lines.push(`assert ${py(n)} in text`);
    this.body.push(...lines);
    for (const n of needles) {
      this.failures.push([`AssertionError: assert '${n}' in '${this.path.split("/").pop() ?? ""}: ...'`]);
      this.asserts++;
    }
    return this;
  }

  matches(regex: string, what: string): this {
    return this.add([`assert re.search(${pyRegex(regex)}, ${this.v}.read_text(), re.M), "no ${what} in file"`], [
      `AssertionError: no ${what} in file`,
      `assert None`,
      ` +  where None = <function search at 0x7f3a2c0b1e40>('${regex.replaceAll("\\", "\\\\")}', '', re.MULTILINE)`,
    ]);
  }

  mode(octal: number): this {
    const m = `0o${octal.toString(8)}`;
    return this.add([`assert stat.S_IMODE(${this.v}.stat().st_mode) == ${m}, oct(${this.v}.stat().st_mode)`], [
      `AssertionError: 0o100644`,
      `assert 420 == ${octal}`,
    ]);
  }

  minLines(n: number): this {
    return this.add([`assert len(${this.v}.read_text().splitlines()) >= ${n}`], [
      `AssertionError: assert 0 >= ${n}`,
      ` +  where 0 = len([])`,
    ]);
  }

  jsonKeys(...keys: string[]): this {
    this.body.push(`data = json.loads(${this.v}.read_text())`);
    for (const k of keys) {
      this.body.push(`assert ${py(k)} in data`);
      this.failures.push([`AssertionError: assert '${k}' in {}`]);
      this.asserts++;
    }
    return this;
  }

  csvHeader(columns: readonly string[], minRows = 1): this {
    this.body.push(`with ${this.v}.open(newline="") as fh:`, `    rows = list(csv.reader(fh))`);
    this.add([`assert rows[0] == ${pyList(columns)}`], [`AssertionError: assert [] == ${pyList(columns)}`]);
    return this.add([`assert len(rows) > ${minRows}`], [`AssertionError: assert 1 > ${minRows}`]);
  }

  /** Runs a command inside the container and checks its exit status and output. */
  run(argv: readonly string[], expect?: string): this {
    this.body.push(`result = subprocess.run(${pyList(argv)}, capture_output=True, text=True)`);
    this.add([`assert result.returncode == 0, result.stderr`], [
      `AssertionError: ${argv[0] ?? "command"}: cannot access '${this.path}': No such file or directory`,
      `assert 2 == 0`,
      ` +  where 2 = CompletedProcess(args=${pyList(argv.slice(0, 3))}, returncode=2).returncode`,
    ]);
    if (expect !== undefined) this.add([`assert ${py(expect)} in result.stdout`], [`AssertionError: assert '${expect}' in ''`]);
    return this;
  }

  /** A scalar SQL query against an SQLite database. */
  sql(query: string, op: ">=" | "==", expected: number): this {
    this.body.push(`con = sqlite3.connect(${this.v})`, `(value,) = con.execute(${py(query)}).fetchone()`, `con.close()`);
    return this.add([`assert value ${op} ${expected}, value`], [
      `sqlite3.OperationalError: no such table: ${/from\s+(\w+)/i.exec(query)?.[1] ?? "main"}`,
    ]);
  }

  raw(lines: readonly string[], asserts: number, failure: readonly string[]): this {
    this.body.push(...lines);
    for (let i = 0; i < asserts; i++) this.failures.push([...failure]);
    this.asserts += asserts;
    return this;
  }

  /** `existing`: the artifact is already there (extended, not created), so content checks fail first. */
  build(existing = false): TestPart {
    const first = existing ? this.failures[1] ?? this.failures[0] : this.failures[0];
    return { path: this.path, lines: this.body.slice(), asserts: this.asserts, failure: first ?? ["AssertionError"] };
  }
}

export function pyList(items: readonly string[]): string {
  return `[${items.map(py).join(", ")}]`;
}

export function test(name: string, doc: string, round: number, parts: TestPart[], passesOnNop = false): TestCase {
  return { name, doc, parts, round, passesOnNop };
}
