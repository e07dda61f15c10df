// The Flags page's state lives in its address. The page shows open flags unless told otherwise
// (`status=all` shows every status), and the server's first run when none is named.

const API_KEYS = ["run", "rule", "status", "source", "severity", "round", "operator", "task", "cursor", "limit"] as const;

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function read(params: Params, key: string): string {
  const v = params instanceof URLSearchParams ? params.get(key) : params[key];
  return (Array.isArray(v) ? v[0] : v)?.trim() ?? "";
}

/** The page's status filter: "open" when absent, "" for `all`. */
export function pageStatus(params: Params): string {
  const s = read(params, "status");
  return s === "" ? "open" : s === "all" ? "" : s;
}

/** The query string `GET /api/v1/flags` gets for the page's address, in one order (a shared cache key). */
export function flagApiSearch(params: Params, defaultRun: string): string {
  const out = new URLSearchParams();
  for (const key of API_KEYS) {
    const v = key === "run" ? read(params, key) || defaultRun : key === "status" ? pageStatus(params) : read(params, key);
    if (v !== "") out.set(key, v);
  }
  return out.toString();
}
