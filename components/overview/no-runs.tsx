import { EmptyState } from "@/components/ui/empty-state";

export function NoRuns() {
  return (
    <EmptyState title="No runs yet">
      <p>Ingest a synthesis run (native RST layout, Harbor or Terminal-Bench task directories, job output, release shards or JSONL):</p>
      <pre className="mx-auto mt-3 w-fit rounded-md border border-line bg-surface-2 px-3 py-2 text-left font-mono text-xs text-fg">
        npx rst-curator ingest PATH
      </pre>
      <p className="mt-3">Then reload this page.</p>
    </EmptyState>
  );
}
