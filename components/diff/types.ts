// The diff page's client views: what they are handed (lib/diff/payload) and the layouts.
export type { DiffFilePayload, DiffRowTuple } from "@/lib/diff/payload-types";

export const DIFF_VIEWS = ["unified", "split"] as const;
export type DiffViewMode = (typeof DIFF_VIEWS)[number];

export interface DiffSide {
  id: number;
  task_id: string;
  round: number | null;
  operator: string | null;
}
