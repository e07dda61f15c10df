import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { invalidateAfterWrite } from "./invalidate";

/** A server whose reads answer when told to, with the state they read when they arrived. */
function slowServer() {
  let state = "before";
  const pending: Array<() => void> = [];
  let reads = 0;
  return {
    write: (next: string) => void (state = next),
    read: () => {
      reads += 1;
      const seen = state;
      return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
    },
    answerAll: () => pending.splice(0).forEach((answer) => answer()),
    reads: () => reads,
  };
}

/** Answers the server's reads until `work` is done (a bounded number of turns). */
async function serve(server: ReturnType<typeof slowServer>, work: Promise<unknown>) {
  let done = false;
  void work.then(() => (done = true));
  for (let turn = 0; turn < 50 && !done; turn++) {
    server.answerAll();
    await new Promise((r) => setTimeout(r, 0));
  }
  await work;
}

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });

/** A page showing ["list"] from a slow server: its first load starts at once. */
function shownList() {
  const client = newClient();
  const server = slowServer();
  const observer = new QueryObserver(client, { queryKey: ["list"], queryFn: server.read });
  const unsubscribe = observer.subscribe(() => {});
  return { client, server, observer, unsubscribe };
}

describe("invalidateAfterWrite", () => {
  // During the first load TanStack Query alone would keep the first answer, read before the write.
  it.each([
    ["during its first load", false],
    ["once it has loaded", true],
  ])("a write %s is seen: the refetch is one request, sent after the write", async (_, loaded) => {
    const { client, server, observer, unsubscribe } = shownList();
    if (loaded) await serve(server, observer.refetch());
    expect(observer.getCurrentResult().data).toBe(loaded ? "before" : undefined);

    server.write("after");
    await serve(server, invalidateAfterWrite(client, { queryKey: ["list"] }));
    expect(observer.getCurrentResult().data).toBe("after");
    expect(server.reads()).toBe(2);
    unsubscribe();
  });

  it("a prefetch nobody shows yet is not cancelled: it finishes, stale, and is refetched when shown", async () => {
    const client = newClient();
    const server = slowServer();
    const prefetch = client.prefetchQuery({ queryKey: ["next"], queryFn: server.read });

    server.write("after");
    await invalidateAfterWrite(client, { queryKey: ["next"] });
    expect(server.reads()).toBe(1); // nothing waited for a read, nothing was sent again
    await serve(server, prefetch);
    await new Promise((r) => setTimeout(r, 0));
    const query = client.getQueryCache().find({ queryKey: ["next"], exact: true });
    expect(query?.state.data).toBe("before"); // the prefetch's answer is kept…
    expect(query?.isStale()).toBe(true); // …but not as fresh

    const observer = new QueryObserver(client, { queryKey: ["next"], queryFn: server.read });
    let fresh: () => void = () => {};
    const refetched = new Promise<void>((r) => (fresh = r));
    const unsubscribe = observer.subscribe((result) => result.data === "after" && fresh());
    expect(observer.getCurrentResult().data).toBe("before"); // shown at once, and refetched
    await serve(server, refetched);
    expect(server.reads()).toBe(2);
    unsubscribe();
  });
});
