"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { buttonClass, FormError, linkButtonClass } from "@/components/auth/form-controls";
import { VisibleText } from "@/components/code/visible-text";
import { FlagButton } from "@/components/flags/flag-button";
import { DecisionBar } from "@/components/review/decision-bar";
import { TaskHeader } from "@/components/task/task-header";
import { Kbd } from "@/components/ui/kbd";
import type { QueueDetailJson, QueueTaskJson } from "@/lib/api/types";
import { invalidateAfterWrite } from "@/lib/query/invalidate";
import { archiveQueue, queueQuery, queueTaskQuery, refreshQueue, releaseHolds } from "@/lib/query/queues";
import { CheatSheet } from "./cheat-sheet";
import { QueueProgressBar } from "./queue-progress-bar";
import { QueueSidebar } from "./queue-sidebar";
import { QueueTaskView } from "./queue-task-view";
import { useQueueKeys } from "./use-queue-keys";
import { useQueueSession } from "./use-queue-session";

export type QueueScreenProps = { initial: QueueDetailJson };

/**
 * One task at a time: what the reviewer holds (or a task they decided earlier, to revise), the
 * decision bar, and the queue's progress. Everything is reachable by keys (`?` lists them).
 */
export function QueueScreen({ initial }: QueueScreenProps) {
  const queueId = initial.id;
  const router = useRouter();
  const queryClient = useQueryClient();
  // Live: the other reviewers' progress shows up without a decision of one's own.
  const queue = useQuery({ ...queueQuery(queueId), initialData: initial, refetchInterval: 10_000 }).data;
  const session = useQueueSession(queueId, initial.mine.history);
  const keysRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLDivElement>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const taskId = session.viewing;
  const item = useQuery({ ...queueTaskQuery(queueId, taskId ?? 0), enabled: taskId !== null });
  const data: QueueTaskJson | undefined = taskId !== null && item.data?.task.id === taskId ? item.data : undefined;

  // A new task on screen: focus its region, so Tab starts from it and screen readers announce it.
  const shownId = data?.task.id;
  useEffect(() => {
    if (shownId === undefined) return;
    headingRef.current?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [shownId]);

  useQueueKeys({
    j: session.forward,
    k: session.previous,
    "?": () => keysRef.current?.showModal(),
  });

  const holds = session.holds;
  const revising = session.back !== null;
  const progress = queue.progress;

  const act = async (what: () => Promise<unknown>, done: string) => {
    try {
      await what();
      setNotice(done);
      await invalidateAfterWrite(queryClient, { queryKey: queueQuery(queueId).queryKey });
    } catch (err) {
      setNotice((err as Error).message);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-line bg-surface px-3 py-2">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-xs text-muted">
          <Link href="/review" className="hover:text-fg hover:underline">
            Review
          </Link>
          <span aria-hidden="true">/</span>
          <span className="font-medium text-fg">
            <VisibleText text={queue.name} />
          </span>
        </nav>
        <div className="w-64">
          <QueueProgressBar done={progress.done} total={progress.total} label="Queue progress" />
        </div>
        <span className="text-xs text-muted" role="status">
          {progress.left} left{holds && holds.skipped > 0 ? ` · ${holds.skipped} skipped by you` : ""}
        </span>
        <span className="ml-auto flex items-center gap-1">
          <button type="button" className={linkButtonClass} onClick={() => void act(() => refreshQueue(queueId).then((r) => r), "Added the tasks the filter matches now.")}>
            Refresh members
          </button>
          <button
            type="button"
            className={linkButtonClass}
            onClick={() =>
              void act(async () => {
                await releaseHolds(queueId);
                router.push("/review");
              }, "Released.")
            }
          >
            Stop and release my tasks
          </button>
          <button type="button" className={linkButtonClass} onClick={() => void act(() => archiveQueue(queueId, true), "Archived: no new tasks are handed out.")}>
            Archive
          </button>
          <button type="button" className={linkButtonClass} onClick={() => keysRef.current?.showModal()} aria-keyshortcuts="?">
            Keys <Kbd>?</Kbd>
          </button>
        </span>
      </div>
      {notice && <p className="text-xs text-muted" role="status">{notice}</p>}
      <FormError message={session.error ?? undefined} />

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_260px] xl:grid-cols-[minmax(0,1fr)_300px]">
        <div className="flex min-w-0 flex-col gap-3">
          {taskId === null ? (
            holds === null ? (
              <p className="text-xs text-faint">Asking for a task…</p>
            ) : (
              <NothingHeld left={holds.left} skipped={holds.skipped} onSkipped={() => void session.reviewSkipped()} onAgain={() => void session.refresh()} />
            )
          ) : !data ? (
            item.isError ? (
              <FormError message={`Could not load the task: ${item.error.message}`} />
            ) : (
              <p className="text-xs text-faint" role="status">
                Loading task…
              </p>
            )
          ) : (
            <div ref={headingRef} tabIndex={-1} aria-label={`Task ${data.task.task_id}`} data-task-id={data.task.id} className="flex flex-col gap-3 outline-none" key={data.task.id}>
              <div className="flex flex-wrap items-center gap-2 text-xs">
                {revising ? (
                  <span className="rounded bg-info-soft px-1.5 py-0.5 font-medium text-info">
                    Decided earlier — decide again to revise; <Kbd>j</Kbd> goes forward
                  </span>
                ) : (
                  <span className="rounded bg-accent-soft px-1.5 py-0.5 font-medium text-accent">Held for you</span>
                )}
                {data.done && !revising && <span className="rounded bg-warn-soft px-1.5 py-0.5 text-warn">Someone decided this task meanwhile</span>}
                <FlagButton taskId={data.task.id} hotkey className="ml-auto" />
              </div>
              <TaskHeader task={data.task} />
              <DecisionBar
                key={`${data.task.id}`}
                taskId={data.task.id}
                initialVersion={data.task.version}
                onDecided={(_state, decision) => session.decided({ id: data.task.id, task_id: data.task.task_id, decision })}
                onSkip={() => void session.skip(data.task.id)}
                send={revising ? undefined : session.send(data.task.id)}
              />
              <QueueTaskView item={data} />
            </div>
          )}
        </div>
        <QueueSidebar queue={queue} history={session.history} back={session.back} onPick={session.goTo} onKeys={() => keysRef.current?.showModal()} />
      </div>
      <CheatSheet ref={keysRef} />
    </div>
  );
}

type NothingHeldProps = { left: number; skipped: number; onSkipped: () => void; onAgain: () => void };

function NothingHeld({ left, skipped, onSkipped, onAgain }: NothingHeldProps) {
  if (left === 0) {
    return (
      <div className="rounded-lg border border-ok/40 bg-ok-soft px-4 py-6 text-center text-sm text-ok" role="status">
        This queue is done: every task has a decision. <Link href="/review" className="underline">Back to the queues</Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-line-strong bg-surface px-4 py-6 text-center text-sm" role="status">
      {skipped > 0 ? (
        <>
          <p>Nothing left for you: you skipped {skipped} of the {left} tasks left; the others are held by other reviewers.</p>
          <button type="button" className={buttonClass} onClick={onSkipped}>
            Review my skipped tasks again
          </button>
        </>
      ) : (
        <>
          <p>The {left} tasks left are held by other reviewers right now.</p>
          <button type="button" className={buttonClass} onClick={onAgain}>
            Ask again
          </button>
        </>
      )}
    </div>
  );
}
