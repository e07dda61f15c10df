// Lines of one chart: which row key, how it is named and drawn.
import type { Marker } from "@/lib/rounds/palette";

export interface LineSeries {
  key: string;
  label: string;
  color: string;
  dash: string;
  marker: Marker;
  /** Index of the run it belongs to (0: the page's run). */
  run: number;
}
