import { expect, test } from "vitest";
import { mapOrdered } from "./pool";

async function* range(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

test("keeps input order even when later items finish first", async () => {
  const out: number[] = [];
  let running = 0;
  let peak = 0;
  for await (const v of mapOrdered(range(20), 4, async (i) => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setImmediate(r));
    if (i % 3 === 0) await new Promise((r) => setImmediate(r));
    running--;
    return i * 2;
  })) out.push(v);
  expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
  expect(peak).toBeLessThanOrEqual(4);
  expect(peak).toBeGreaterThan(1);
});

test("propagates a failure", async () => {
  const run = async () => {
    for await (const _ of mapOrdered(range(5), 2, async (i) => {
      if (i === 3) throw new Error("boom");
      return i;
    }));
  };
  await expect(run()).rejects.toThrow("boom");
});
