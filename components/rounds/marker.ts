// Series markers as SVG path data: one shape drawn on a chart's points, in its legend and in the
// PNG legend, so that a series is told apart by shape as well as by colour and dash.
import type { Marker } from "@/lib/rounds/palette";

/** A marker of half-size `s` centred on (cx, cy). */
export function markerPath(marker: Marker, cx: number, cy: number, s = 3.5): string {
  switch (marker) {
    case "square":
      return `M${cx - s},${cy - s}h${2 * s}v${2 * s}h${-2 * s}Z`;
    case "triangle":
      return `M${cx},${cy - s - 1}L${cx + s + 0.5},${cy + s}L${cx - s - 0.5},${cy + s}Z`;
    case "diamond":
      return `M${cx},${cy - s - 1}L${cx + s + 1},${cy}L${cx},${cy + s + 1}L${cx - s - 1},${cy}Z`;
    case "cross":
      return `M${cx - s},${cy - s}L${cx + s},${cy + s}M${cx + s},${cy - s}L${cx - s},${cy + s}`;
    default:
      return `M${cx - s},${cy}a${s},${s} 0 1,0 ${2 * s},0a${s},${s} 0 1,0 ${-2 * s},0Z`;
  }
}

/** A cross is two strokes; every other marker is a filled shape. */
export function isStrokedMarker(marker: Marker): boolean {
  return marker === "cross";
}

/** SVG paint of a marker; `outline` sets a filled shape apart from the line it sits on. */
export function markerPaint(marker: Marker, color: string, outline = color) {
  return isStrokedMarker(marker) ? { stroke: color, strokeWidth: 2, fill: "none" } : { fill: color, stroke: outline, strokeWidth: 1 };
}
