import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { cache } from "react";
import { LogHeader } from "@/components/log/log-header";
import { LogViewer } from "@/components/log/log-viewer";
import { parseId } from "@/lib/api/http";
import { requireActor } from "@/lib/auth/page";
import { getLogRange, getTrialLogMeta } from "@/lib/data/trials";
import { LOG_WINDOW, logKeys } from "@/lib/query/logs";
import { getServerQueryClient } from "@/lib/query/server";

type Props = { params: Promise<{ id: string; name: string[] }> };

/** The log a URL names, or null (shared by generateMetadata and the page within one request). */
const loadLog = cache(async (rawId: string, parts: string[]) => {
  const actor = await requireActor("read");
  const trialId = parseId(rawId);
  const name = decodeName(parts);
  if (trialId === null || name === null) return null;
  const meta = await getTrialLogMeta(actor, trialId, name);
  return meta ? { actor, meta } : null;
});

/** Segments arrive percent-encoded, as the API route reads them; a malformed escape is no log. */
function decodeName(parts: string[]): string | null {
  try {
    return parts.map((p) => decodeURIComponent(p)).join("/");
  } catch {
    return null;
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  await connection();
  const { id, name } = await params;
  const found = await loadLog(id, name);
  return { title: found ? `${found.meta.name} · ${found.meta.trialExtId}` : "Log not found" };
}

export default async function TrialLogPage({ params }: Props) {
  await connection();
  const { id, name } = await params;
  const found = await loadLog(id, name);
  if (!found) notFound();
  const { actor, meta } = found;

  // The first window rides along with the page, so the first lines show without a request.
  const first = await getLogRange(actor, meta.trialId, meta.name, 0, LOG_WINDOW);
  const queryClient = getServerQueryClient();
  if (first) queryClient.setQueryData(logKeys.window({ trialId: meta.trialId, name: meta.name }, 0), first);

  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      {/* The viewer fills what the app header (2.75rem) and the page padding (2rem) leave. */}
      <div className="flex h-[calc(100dvh-4.75rem)] min-h-96 flex-col gap-3">
        <LogHeader taskId={meta.taskId} taskExtId={meta.taskExtId} trialExtId={meta.trialExtId} check={meta.check} name={meta.name} />
        <LogViewer key={`${meta.trialId}/${meta.name}`} trialId={meta.trialId} name={meta.name} totalLines={meta.lines} bytes={meta.bytes} logs={meta.logs} />
      </div>
    </HydrationBoundary>
  );
}
