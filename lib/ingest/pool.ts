// Bounded look-ahead: file reading overlaps with database writes while order is kept.
export async function* mapOrdered<I, O>(input: AsyncIterable<I>, concurrency: number, fn: (item: I) => Promise<O>): AsyncGenerator<O> {
  const inflight: Promise<O>[] = [];
  for await (const item of input) {
    const p = fn(item);
    p.catch(() => {}); // surfaced when awaited below; avoids an unhandled rejection meanwhile
    inflight.push(p);
    if (inflight.length >= concurrency) {
      const head = inflight.shift();
      if (head) yield await head;
    }
  }
  while (inflight.length > 0) {
    const head = inflight.shift();
    if (head) yield await head;
  }
}
