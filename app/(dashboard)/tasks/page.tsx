import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { TaskBrowser } from "@/components/tasks/task-browser";
import { requireActor } from "@/lib/auth/page";
import type { Actor } from "@/lib/auth/actor";
import { can } from "@/lib/auth/permissions";
import { getFacets, getTask, listTasks } from "@/lib/data/read";
import { getViewQuery } from "@/lib/data/views";
import { parseId } from "@/lib/api/http";
import { getServerQueryClient } from "@/lib/query/server";
import { facetsQuery, taskListQuery, taskQuery } from "@/lib/query/tasks";
import { parseTaskFilter } from "@/lib/tasks/filter";

export const metadata: Metadata = { title: "Tasks" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** An unknown id is left to the browser's fetch (and its 404), not cached as data. */
function prefetchSeed(actor: Actor, id: number) {
  return getServerQueryClient().prefetchQuery({
    ...taskQuery(id),
    queryFn: async () => {
      const task = await getTask(actor, id);
      if (!task) throw new Error(`task ${id} not found`);
      return task;
    },
  });
}

/** Prefetches the first page and the filter options, so the table paints with data. */
export default async function TasksPage({ searchParams }: Props) {
  await connection();
  const actor = await requireActor();
  const params = await searchParams;
  // A saved view's short link (/tasks?view=<id>) becomes the view's own, shareable URL.
  if (typeof params.view === "string") {
    const id = parseId(params.view);
    const query = id === null ? null : await getViewQuery(actor, id);
    if (query !== null) redirect(`/tasks?${query}`);
  }
  const parsed = parseTaskFilter(params);
  const queryClient = getServerQueryClient();
  if (parsed.ok) {
    const filter = parsed.filter;
    await Promise.all([
      queryClient.prefetchQuery({ ...taskListQuery(filter), queryFn: () => listTasks(actor, filter) }),
      queryClient.prefetchQuery({ ...facetsQuery(filter.run), queryFn: () => getFacets(actor, filter.run) }),
      // A seed-family filter names its seed in a chip.
      filter.root !== undefined && prefetchSeed(actor, filter.root),
    ]);
  }
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <TaskBrowser canReview={can(actor.role, "review")} isAdmin={can(actor.role, "admin")} />
    </HydrationBoundary>
  );
}
