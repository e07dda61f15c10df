/**
 * Remembers the last results of an async function of one text, per thread. A rejected candidate
 * that duplicates another, or a child that keeps its parent's verifier, repeats a file byte for
 * byte; its parse is skipped. Small on purpose: in generated runs about 3 % of solutions and
 * pytest files repeat, and a long-lived cache would hold megabytes of source text.
 */
export function memoizeByText<T>(fn: (text: string) => Promise<T>, capacity = 512): (text: string) => Promise<T> {
  const cache = new Map<string, T>();
  return async (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const value = await fn(text);
    if (cache.size >= capacity) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(text, value);
    return value;
  };
}
