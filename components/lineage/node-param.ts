// The selected tree node lives in the URL (`?node=<id>`), so a view can be shared as it is.
// Replaced in place through the History API: moving the selection must not flood the history.

export function writeNodeParam(id: number | null): void {
  const next = new URLSearchParams(window.location.search);
  if (id === null) next.delete("node");
  else next.set("node", String(id));
  const qs = next.toString();
  const url = `${window.location.pathname}${qs ? `?${qs}` : ""}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) window.history.replaceState(window.history.state, "", url);
}

/** `?node=` as a task id, from the server page's search params. */
export function parseNodeParam(raw: string | string[] | undefined): number | null {
  return typeof raw === "string" && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}
