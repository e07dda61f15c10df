import type { Metadata } from "next";
import { connection } from "next/server";
import { NewQueueForm } from "@/components/queue/new-queue-form";
import { PageHeader } from "@/components/ui/page-header";
import { requireActor } from "@/lib/auth/page";
import { listTasks } from "@/lib/data/read";
import { storedFilter } from "@/lib/data/queues";
import { parseTaskFilter } from "@/lib/tasks/filter";

export const metadata: Metadata = { title: "New review queue" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** "run demo · round 12 · review unreviewed" from the filter. */
function nameOf(search: string): string {
  const parts = [...new URLSearchParams(search)]
    .filter(([k]) => k !== "sort")
    .sort(([a], [b]) => Number(b === "run") - Number(a === "run"))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  return (parts.join(" · ") || "All tasks").slice(0, 200);
}

export default async function NewQueuePage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor("review");
  const parsed = parseTaskFilter(await searchParams);
  const filter = parsed.ok ? storedFilter(parsed.filter) : "";
  const list = parsed.ok ? await listTasks(actor, { ...parsed.filter, cursor: undefined, limit: 1 }) : null;
  return (
    <>
      <PageHeader title="New review queue" subtitle="A queue is made of the tasks a task-table filter matches; reviewers then work it one task at a time." />
      <NewQueueForm initialFilter={filter} initialName={nameOf(filter)} matches={list ? list.total : null} estimate={list?.total_is_estimate ?? false} />
    </>
  );
}
