"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, inputClass, primaryButtonClass } from "@/components/auth/form-controls";
import { createQueue } from "@/lib/query/queues";

export type NewQueueFormProps = {
  initialFilter: string;
  initialName: string;
  /** How many tasks the initial filter matches (a lower bound when `estimate`). */
  matches: number | null;
  estimate: boolean;
};

/** A name and a task-table filter (a query string or a whole task-table URL) make a queue. */
export function NewQueueForm({ initialFilter, initialName, matches, estimate }: NewQueueFormProps) {
  const router = useRouter();
  const [name, setName] = useState(initialName);
  const [filter, setFilter] = useState(initialFilter);
  const [minutes, setMinutes] = useState(15);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const queue = await createQueue({ name: name.trim(), filter: filter.trim(), reservation_minutes: minutes });
      router.push(`/review/${queue.id}`);
    } catch (err) {
      setError((err as Error).message);
      setPending(false);
    }
  };

  return (
    <form
      aria-label="New review queue"
      className="flex max-w-2xl flex-col gap-3 rounded-lg border border-line bg-surface p-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label className="flex flex-col gap-1 text-xs text-muted">
        Name
        <input autoFocus required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} className={inputClass} />
      </label>
      <label className="flex flex-col gap-1 text-xs text-muted">
        Filter (the task table&apos;s query string, or its whole address)
        <input
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="run=demo&round=12&review=unreviewed&flag=any"
          className={`${inputClass} font-mono`}
        />
      </label>
      <p className="text-xs text-muted">
        {filter === initialFilter && matches !== null
          ? `${estimate ? "At least " : ""}${matches.toLocaleString("en")} task${matches === 1 ? "" : "s"} match now; they become the queue (“refresh” adds later matches).`
          : "The tasks the filter matches when you create the queue become its members."}
      </p>
      <label className="flex items-center gap-2 text-xs text-muted">
        Hold a task for a reviewer for
        <input
          type="number"
          min={1}
          max={1440}
          value={minutes}
          onChange={(e) => setMinutes(Math.max(1, Math.min(1440, Number(e.target.value) || 15)))}
          className={`${inputClass} w-20`}
        />
        minutes
      </label>
      <FormError message={error ?? undefined} />
      <div>
        <button type="submit" className={primaryButtonClass} disabled={pending || !name.trim()}>
          {pending ? "Creating…" : "Create queue and start"}
        </button>
      </div>
    </form>
  );
}
