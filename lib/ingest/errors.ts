// Bad input is a value: every problem names its file (and line when there is one).
export interface IngestIssue {
  file: string;
  line?: number;
  message: string;
}

export function formatIssue(issue: IngestIssue): string {
  return `${issue.file}${issue.line !== undefined ? `:${issue.line}` : ""}: ${issue.message}`;
}

export class IngestError extends Error {
  readonly issues: IngestIssue[];
  constructor(issues: IngestIssue[]) {
    const head = issues.slice(0, 20).map(formatIssue).join("\n  ");
    const more = issues.length > 20 ? `\n  … and ${issues.length - 20} more` : "";
    super(`Import failed, nothing was written (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n  ${head}${more}`);
    this.name = "IngestError";
    this.issues = issues;
  }
}

/** Collects problems so one run reports all of them at once, up to a cap. */
export class IssueList {
  readonly items: IngestIssue[] = [];
  constructor(private readonly cap = 200) {}
  add(file: string, message: string, line?: number): void {
    if (this.items.length < this.cap) this.items.push(line === undefined ? { file, message } : { file, line, message });
  }
  get size(): number {
    return this.items.length;
  }
  throwIfAny(): void {
    if (this.items.length > 0) throw new IngestError(this.items);
  }
}
