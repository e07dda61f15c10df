// The list cursor is opaque to the API's clients, except that the table needs its position to
// show "51–100 of N" and to page backwards. It mirrors encodeCursor() in db/queries/tasks.ts
// (base64url of "o:<offset>"); an unknown cursor yields null and the table degrades gracefully.
export function cursorOffset(cursor: string | undefined): number | null {
  if (!cursor) return 0;
  try {
    const b64 = cursor.replace(/-/g, "+").replace(/_/g, "/");
    const m = /^o:(\d{1,9})$/.exec(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)));
    return m?.[1] ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function offsetCursor(offset: number): string | undefined {
  if (offset <= 0) return undefined;
  return btoa(`o:${offset}`).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
