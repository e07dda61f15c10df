// A slice in words, for the page's summary line and the baselines list.
import type { RoundSliceJson, SeedFamilyJson } from "@/lib/api/types";

/** `seeds` names a seed family by its seed's pipeline id; unknown ones by their database id. */
export function describeSlice(slice: RoundSliceJson, seeds: readonly SeedFamilyJson[] = []): string {
  const parts = [
    slice.category !== undefined && `category ${slice.category}`,
    slice.operator !== undefined && `operator ${slice.operator}`,
    slice.root !== undefined && `seed family ${seeds.find((x) => x.id === slice.root)?.task_id ?? `#${slice.root}`}`,
    slice.review !== undefined && `review ${slice.review}`,
  ].filter((p): p is string => typeof p === "string");
  return parts.length > 0 ? parts.join(" · ") : "all tasks";
}
