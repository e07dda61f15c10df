// Task metadata (task.toml, parsed) as a flat key/value list: nested tables become dotted keys.
export type FlatEntry = { key: string; value: string };

function scalar(v: unknown): string | null {
  if (v === null) return "null";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return null;
}

export function flattenMetadata(value: unknown, prefix = "", out: FlatEntry[] = [], depth = 0): FlatEntry[] {
  const s = scalar(value);
  if (s !== null) {
    out.push({ key: prefix || "(value)", value: s });
    return out;
  }
  if (Array.isArray(value)) {
    const parts = value.map(scalar);
    if (parts.every((p): p is string => p !== null)) out.push({ key: prefix, value: parts.join(", ") });
    else out.push({ key: prefix, value: JSON.stringify(value) });
    return out;
  }
  if (typeof value === "object" && value !== undefined && depth < 6) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.push({ key: prefix, value: "{}" });
    for (const [k, v] of entries) flattenMetadata(v, prefix ? `${prefix}.${k}` : k, out, depth + 1);
    return out;
  }
  if (value !== undefined) out.push({ key: prefix, value: JSON.stringify(value) ?? String(value) });
  return out;
}
