import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { QueueScreen } from "@/components/queue/queue-screen";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { getQueue } from "@/lib/data/queues";

export const metadata: Metadata = { title: "Review queue" };

type Props = { params: Promise<{ queueId: string }> };

/** The queue's progress is rendered here; the task to review is asked for by the screen (a hold is a write). */
export default async function QueuePage({ params }: Props) {
  await connection();
  const actor = await requireActor("review");
  const id = parseId((await params).queueId);
  const queue = id === null ? null : await getQueue(actor, id);
  if (!queue) notFound();
  return <QueueScreen initial={queue} />;
}
