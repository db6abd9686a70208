import { describe, expect, it } from "vitest";

import { ImageMemory, ShownReporter } from "./image-memory";

/** A memory with doubles: fetches answered by hand, addresses counted, timers run by hand. */
function harness() {
  const fetches: Array<{ src: string; signal: AbortSignal; resolve: (blob: Blob) => void; reject: (error: Error) => void }> = [];
  const live = new Set<string>();
  const revoked: string[] = [];
  const timers: Array<{ run: () => void; ms: number; cleared: boolean }> = [];
  let next = 0;
  const memory = new ImageMemory({
    fetchBytes: (src, signal) =>
      new Promise<Blob>((resolve, reject) => {
        fetches.push({ src, signal, resolve, reject });
      }),
    createUrl: () => {
      next += 1;
      const url = `blob:test/${next}`;
      live.add(url);
      return url;
    },
    revokeUrl: (url) => {
      live.delete(url);
      revoked.push(url);
    },
    decode: async (url) => ({ decoded: url }),
    graceMs: 2000,
    setTimer: (run, ms) => {
      const timer = { run, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  });
  const runTimers = () => {
    for (const timer of timers.splice(0)) if (!timer.cleared) timer.run();
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { memory, fetches, live, revoked, runTimers, settle };
}

const png = () => new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });

describe("images read ahead, in memory", () => {
  it("fetches each picture of a held case once, through its token, and shows it from memory once decoded", async () => {
    const { memory, fetches, settle } = harness();
    memory.hold("case-b");
    const warming = memory.warm("case-b", "selfie", "/api/media/token-1");
    // Asked again while it arrives (a token refresh, a second render): no second fetch.
    void memory.warm("case-b", "selfie", "/api/media/token-2");
    expect(fetches.map((fetch) => fetch.src)).toEqual(["/api/media/token-1"]);
    expect(memory.pictureOf("case-b", "selfie")).toBeNull();
    fetches[0]!.resolve(png());
    await warming;
    await settle();
    expect(memory.pictureOf("case-b", "selfie")).toMatch(/^blob:test\//);
    expect(memory.pictureOf("case-b", "document_front")).toBeUndefined();
    void memory.warm("case-b", "selfie", "/api/media/token-3");
    expect(fetches).toHaveLength(1);
  });

  it("reads nothing for a case nobody holds", async () => {
    const { memory, fetches } = harness();
    await memory.warm("case-x", "selfie", "/api/media/t");
    expect(fetches).toHaveLength(0);
    expect(memory.pictureOf("case-x", "selfie")).toBeUndefined();
  });

  it("keeps the pictures across the hand-over from the page that read them to the page showing them", async () => {
    const { memory, fetches, live, runTimers } = harness();
    const releaseAhead = memory.hold("case-b");
    const warming = memory.warm("case-b", "selfie", "/api/media/t");
    fetches[0]!.resolve(png());
    await warming;
    const url = memory.pictureOf("case-b", "selfie");
    // "next": the current page lets go as the next one takes hold, in the same render.
    releaseAhead();
    const releaseShown = memory.hold("case-b");
    runTimers();
    expect(memory.pictureOf("case-b", "selfie")).toBe(url);
    expect(live.has(url!)).toBe(true);
    releaseShown();
    expect(memory.pictureOf("case-b", "selfie")).toBe(url);
    runTimers();
    // Nobody holds it after the grace period: the address is revoked and the bytes let go.
    expect(memory.pictureOf("case-b", "selfie")).toBeUndefined();
    expect(live.size).toBe(0);
    expect(memory.heldCases()).toEqual([]);
  });

  it("aborts a read still under way when the case is let go, and keeps nothing that arrives after", async () => {
    const { memory, fetches, live, runTimers, settle } = harness();
    const release = memory.hold("case-b");
    const warming = memory.warm("case-b", "document_front", "/api/media/t");
    release();
    runTimers();
    expect(fetches[0]!.signal.aborted).toBe(true);
    fetches[0]!.resolve(png());
    await warming;
    await settle();
    expect(live.size).toBe(0);
    expect(memory.pictureOf("case-b", "document_front")).toBeUndefined();
  });

  it("leaves no trace of a refused read (an expired token, the media quota): the page loads it through its token", async () => {
    const { memory, fetches, live } = harness();
    memory.hold("case-b");
    const warming = memory.warm("case-b", "selfie", "/api/media/t");
    fetches[0]!.reject(new Error("image read ahead refused (410)"));
    await warming;
    expect(memory.pictureOf("case-b", "selfie")).toBeUndefined();
    expect(live.size).toBe(0);
    // A later read may try again.
    void memory.warm("case-b", "selfie", "/api/media/t2");
    expect(fetches).toHaveLength(2);
  });

  it("lets go a picture that failed to show, and says a picture was shown the first time only", async () => {
    const { memory, fetches, live } = harness();
    memory.hold("case-b");
    const warming = memory.warm("case-b", "selfie", "/api/media/t");
    expect(memory.firstShown("case-b", "selfie")).toBe(false);
    fetches[0]!.resolve(png());
    await warming;
    expect(memory.firstShown("case-b", "selfie")).toBe(true);
    expect(memory.firstShown("case-b", "selfie")).toBe(false);
    memory.forget("case-b", "selfie");
    expect(memory.pictureOf("case-b", "selfie")).toBeUndefined();
    expect(live.size).toBe(0);
  });

  it("tells its subscribers when a picture arrives or goes", async () => {
    const { memory, fetches, runTimers } = harness();
    let calls = 0;
    const unsubscribe = memory.subscribe(() => (calls += 1));
    const release = memory.hold("case-b");
    const warming = memory.warm("case-b", "selfie", "/api/media/t");
    expect(calls).toBe(1);
    fetches[0]!.resolve(png());
    await warming;
    expect(calls).toBe(2);
    release();
    runTimers();
    expect(calls).toBe(3);
    unsubscribe();
  });
});

describe("pictures shown from memory, reported", () => {
  it("sends one report per case for the pictures shown together, and tries a failed one once more", async () => {
    const sent: Array<[string, string[]]> = [];
    let failures = 1;
    const queue: Array<() => void> = [];
    const reporter = new ShownReporter(
      async (publicId, files) => {
        sent.push([publicId, files]);
        if (failures-- > 0) throw new Error("network");
        return { recorded: files.length };
      },
      (run) => queue.push(run),
    );
    reporter.report("case-b", "selfie");
    reporter.report("case-b", "document_front");
    reporter.report("case-c", "selfie");
    expect(queue).toHaveLength(1);
    queue.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([
      ["case-b", ["document_front", "selfie"]],
      ["case-c", ["selfie"]],
      ["case-b", ["document_front", "selfie"]],
    ]);
  });
});
