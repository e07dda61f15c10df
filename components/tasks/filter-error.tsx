import Link from "next/link";
import type { z } from "zod";

export type FilterErrorProps = { error: z.ZodError };

/** A hand-edited or outdated URL: say which parameter is wrong instead of showing nothing. */
export function FilterError({ error }: FilterErrorProps) {
  return (
    <div role="alert" className="rounded-lg border border-bad/40 bg-bad-soft px-4 py-3 text-xs text-bad">
      <p className="font-semibold">This address has filters the task table does not understand.</p>
      <ul className="mt-1 list-disc pl-5 font-mono">
        {error.issues.map((issue) => (
          <li key={`${issue.path.join(".")}:${issue.message}`}>
            {issue.path.join(".") || "filter"}: {issue.message}
          </li>
        ))}
      </ul>
      <Link href="/tasks" className="mt-2 inline-block underline">
        Reset all filters
      </Link>
    </div>
  );
}
