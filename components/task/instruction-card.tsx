import Link from "next/link";
import { SafeMarkdown } from "@/components/markdown/safe-markdown";
import { countInvisible } from "@/lib/text/invisible";
import { fileHref } from "./file-list";

export type InstructionCardProps = { taskId: number; path: string | null; source: string | null };

export function InstructionCard({ taskId, path, source }: InstructionCardProps) {
  const hidden = source ? countInvisible(source) : 0;
  return (
    <section aria-labelledby="instruction-title" className="rounded-lg border border-line bg-surface">
      <div className="flex items-center gap-3 border-b border-line px-4 py-1.5">
        <h2 id="instruction-title" className="text-2xs font-semibold tracking-wide text-muted uppercase">
          Instruction
        </h2>
        {hidden > 0 && (
          <span className="rounded bg-mark-soft px-1.5 text-2xs font-medium text-mark">
            {hidden} invisible character{hidden === 1 ? "" : "s"}
          </span>
        )}
        {path && (
          <Link href={`${fileHref(taskId, path)}#files`} className="ml-auto text-2xs text-accent hover:underline">
            View source
          </Link>
        )}
      </div>
      <div className="max-h-[60vh] overflow-y-auto px-4 py-3">
        {source === null ? <p className="text-xs text-faint">This task has no instruction.md.</p> : <SafeMarkdown source={source} />}
      </div>
    </section>
  );
}
