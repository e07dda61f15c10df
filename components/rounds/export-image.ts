// PNG export in the browser: the chart's SVG is cloned with every computed style inlined (so
// theme variables resolve to real colours), drawn onto a canvas with the title and legend, and
// downloaded. Nothing leaves the browser.
import { safeFileName } from "@/lib/rounds/csv";
import type { Marker } from "@/lib/rounds/palette";
import { isStrokedMarker, markerPath } from "./marker";

export interface LegendEntry {
  label: string;
  color: string;
  dash?: string;
  /** The series' point marker, drawn on its legend line. */
  marker?: Marker;
}

const STYLE_PROPS = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "stroke-opacity",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  "visibility",
] as const;

function inlineStyles(source: Element, target: Element) {
  const computed = getComputedStyle(source);
  const style = STYLE_PROPS.map((p) => `${p}:${computed.getPropertyValue(p)}`).join(";");
  target.setAttribute("style", style);
  const s = source.children;
  const t = target.children;
  for (let i = 0; i < s.length && i < t.length; i++) {
    const a = s[i];
    const b = t[i];
    if (a && b) inlineStyles(a, b);
  }
}

export function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(csv: string, ...nameParts: string[]) {
  download(new Blob([csv], { type: "text/csv;charset=utf-8" }), `${safeFileName(...nameParts)}.csv`);
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error("the chart could not be rendered to an image"));
    img.src = url;
  });
}

/** Renders the first chart SVG inside `container` to a PNG with `title` above and `legend` below. */
export async function exportPng(container: HTMLElement, title: string, legend: LegendEntry[], ...nameParts: string[]) {
  const svg = container.querySelector<SVGSVGElement>("svg.recharts-surface");
  if (!svg) return;
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: "image/svg+xml" }));
  try {
    const img = await loadImage(url);
    const scale = 2;
    const cardStyle = getComputedStyle(container);
    const fg = cardStyle.color;
    const head = 28;
    const legendRows = Math.ceil(legend.length / 4);
    const foot = legendRows * 18 + 8;
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil((height + head + foot) * scale);
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.scale(scale, scale);
    ctx.fillStyle = cardStyle.backgroundColor || "#ffffff";
    ctx.fillRect(0, 0, width, height + head + foot);
    ctx.fillStyle = fg;
    ctx.font = `600 13px ${cardStyle.fontFamily}`;
    ctx.fillText(title, 12, 19);
    ctx.drawImage(img, 0, head, width, height);
    ctx.font = `11px ${cardStyle.fontFamily}`;
    const colWidth = Math.max(120, (width - 24) / 4);
    legend.forEach((entry, i) => {
      const x = 12 + (i % 4) * colWidth;
      const y = head + height + 14 + Math.floor(i / 4) * 18;
      ctx.strokeStyle = entry.color;
      ctx.lineWidth = 3;
      ctx.setLineDash(entry.dash ? entry.dash.split(/\s+/).map(Number) : []);
      ctx.beginPath();
      ctx.moveTo(x, y - 4);
      ctx.lineTo(x + 18, y - 4);
      ctx.stroke();
      if (entry.marker) {
        const shape = new Path2D(markerPath(entry.marker, x + 9, y - 4, 3));
        ctx.setLineDash([]);
        ctx.lineWidth = 2;
        if (isStrokedMarker(entry.marker)) ctx.stroke(shape);
        else {
          ctx.fillStyle = entry.color;
          ctx.fill(shape);
        }
      }
      ctx.fillStyle = fg;
      ctx.fillText(entry.label.slice(0, 40), x + 24, y);
    });
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (blob) download(blob, `${safeFileName(...nameParts)}.png`);
  } finally {
    URL.revokeObjectURL(url);
  }
}
