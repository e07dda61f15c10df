import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { QueueList } from "@/components/queue/queue-list";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { primaryButtonClass } from "@/components/auth/form-controls";
import { requireActor } from "@/lib/auth/page";
import { can } from "@/lib/auth/permissions";
import { listQueues } from "@/lib/data/queues";

export const metadata: Metadata = { title: "Review" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewPage({ searchParams }: Props) {
  await connection();
  // The queues are worked by reviewers; viewers read the progress through the API (and the
  // security suite expects this page to be theirs to be refused).
  const actor = await requireActor("review");
  const archived = (await searchParams).archived === "1";
  const queues = await listQueues(actor, { archived });
  const canReview = can(actor.role, "review");
  return (
    <>
      <PageHeader
        title={archived ? "Archived review queues" : "Review queues"}
        subtitle="Each queue holds the tasks a task-table filter matched; reviewers work it one task at a time, never two on the same task."
        actions={
          <>
            <Link href={archived ? "/review" : "/review?archived=1"} className="text-xs text-accent hover:underline">
              {archived ? "Open queues" : "Archived"}
            </Link>
            {canReview && (
              <Link href="/review/new" className={primaryButtonClass}>
                New queue
              </Link>
            )}
          </>
        }
      />
      {queues.length === 0 ? (
        <EmptyState title={archived ? "No archived queues" : "No review queues yet"}>
          <p>
            Filter the <Link href="/tasks" className="text-accent hover:underline">task table</Link> (for example round 12, unreviewed,
            flagged) and choose “Review these”, or make a queue from a filter here.
          </p>
        </EmptyState>
      ) : (
        <QueueList queues={queues} canReview={canReview} />
      )}
    </>
  );
}
