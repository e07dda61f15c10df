import type { ReactNode } from "react";
import type { ReviewState, TaskStatus } from "@/lib/domain";

export const TONE_CLASSES = {
  ok: "bg-ok-soft text-ok",
  bad: "bg-bad-soft text-bad",
  warn: "bg-warn-soft text-warn",
  info: "bg-info-soft text-info",
  accent: "bg-accent-soft text-accent",
  neutral: "bg-surface-3 text-muted",
} as const;
export type BadgeTone = keyof typeof TONE_CLASSES;

export type BadgeProps = { tone: BadgeTone; title?: string; children: ReactNode };

export function Badge({ tone, title, children }: BadgeProps) {
  return (
    <span
      title={title}
      className={`inline-flex h-[18px] items-center rounded px-1.5 text-2xs font-medium whitespace-nowrap ${TONE_CLASSES[tone]}`}
    >
      {children}
    </span>
  );
}

export type StatusBadgeProps = { status: TaskStatus; reason?: string | null };

/** Pipeline outcome; a rejected candidate carries its reason on hover. */
export function StatusBadge({ status, reason }: StatusBadgeProps) {
  return (
    <Badge tone={status === "accepted" ? "ok" : "bad"} title={status === "rejected" ? `Rejected: ${reason ?? "no reason recorded"}` : undefined}>
      {status}
    </Badge>
  );
}

const REVIEW_TONE: Record<ReviewState, BadgeTone> = {
  unreviewed: "neutral",
  accepted: "ok",
  rejected: "bad",
  "needs-changes": "warn",
  skipped: "info",
};

export type ReviewBadgeProps = { review: ReviewState };

/** A reviewer's decision, distinct from the pipeline status. */
export function ReviewBadge({ review }: ReviewBadgeProps) {
  return (
    <Badge tone={REVIEW_TONE[review]} title={`Review: ${review}`}>
      {review}
    </Badge>
  );
}
