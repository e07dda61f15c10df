// Where a trial's logs live in the dashboard (line anchors are 1-based, like every editor's).
export function logHref(trialId: number, name: string, line0?: number | null): string {
  const path = name.split("/").map(encodeURIComponent).join("/");
  return `/trials/${trialId}/logs/${path}${line0 === null || line0 === undefined ? "" : `#L${line0 + 1}`}`;
}

export function compareHref(taskId: number, a: number, b: number): string {
  return `/tasks/${taskId}/trials/compare?a=${a}&b=${b}`;
}
