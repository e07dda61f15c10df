// The diff page's client views: what they are handed (lib/diff/payload) and the layouts.
export type { DiffFilePayload, DiffRowTuple } from "@/lib/diff/payload-types";

export const DIFF_VIEWS = ["unified", "split"] as const;
export type DiffViewMode = (typeof DIFF_VIEWS)[number];

/** A diff page address with the layout in it (`view=split`; unified is the default and left out). */
export function withView(href: string, view: DiffViewMode): string {
  const hash = href.indexOf("#");
  const [path = "", query = ""] = (hash < 0 ? href : href.slice(0, hash)).split("?", 2);
  const params = new URLSearchParams(query);
  if (view === "unified") params.delete("view");
  else params.set("view", view);
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ""}${hash < 0 ? "" : href.slice(hash)}`;
}

export interface DiffSide {
  id: number;
  task_id: string;
  round: number | null;
  operator: string | null;
}
