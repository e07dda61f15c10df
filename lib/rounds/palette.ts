// Series colours: the Okabe–Ito palette (distinguishable with every common colour-vision
// deficiency), without its black so it reads on the dark theme too; every series also gets a
// dash pattern and a marker so that colour is never the only cue.
export const OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"] as const;
export const OTHER_COLOR = "#999999";

export const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2"] as const;
export const MARKERS = ["circle", "square", "triangle", "diamond", "cross"] as const;
export type Marker = (typeof MARKERS)[number];

export interface SeriesStyle {
  color: string;
  dash: string;
  marker: Marker;
}

export function seriesStyle(i: number): SeriesStyle {
  return {
    color: OKABE_ITO[i % OKABE_ITO.length] ?? OTHER_COLOR,
    dash: DASHES[i % DASHES.length] ?? "",
    marker: MARKERS[i % MARKERS.length] ?? "circle",
  };
}

/** Fixed roles, so a chart's meaning does not shift with the number of series. */
export const ROLE_COLORS = {
  accepted: "#009E73",
  yield: "#0072B2",
  validation: "#E69F00",
  passAtK: "#0072B2",
  reward: "#D55E00",
} as const;

/** Rejection reasons stack above the accepted bar in warm, distinct tones. */
export const REASON_COLORS = ["#D55E00", "#E69F00", "#CC79A7", "#F0E442", "#56B4E9", "#999999"] as const;
