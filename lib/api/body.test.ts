import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/shared/errors";

import { BODY_BUDGET_THRESHOLD_BYTES, BodyBudget, bodyBudget, readText } from "./body";

/*
 * The process-wide budget of large bodies being read at once: a body above the threshold holds its bytes while it
 * is read, a request that does not fit is refused (503 server_busy), and the bytes come back however the read ends.
 */

const URL_ = "http://localhost:3000/api/thing";
const LARGE = BODY_BUDGET_THRESHOLD_BYTES * 4;

/** A body whose chunks arrive only when the test releases them, so two reads overlap. */
function heldBody(chunks: number, chunkBytes: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent === chunks) return controller.close();
      // The first chunk flows at once; the rest wait for the gate.
      if (sent > 0) await gate;
      sent += 1;
      controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
    },
  });
  return { stream, release, sent: () => sent };
}

function request(body: ReadableStream<Uint8Array> | string, headers: Record<string, string> = {}) {
  return new Request(URL_, { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

describe("the body budget", () => {
  it("refuses a large body while others hold the budget, and takes it again once they are done", async () => {
    const chunk = BODY_BUDGET_THRESHOLD_BYTES + 1;
    // Room for one whole body: the first holds a chunk of it, the second cannot add its fourth.
    const budget = new BodyBudget(4 * chunk);
    const first = heldBody(4, chunk);
    const reading = readText(request(first.stream), LARGE * 2, budget);
    await expect.poll(() => budget.inUse).toBeGreaterThan(0);
    const second = heldBody(4, chunk);
    const refused = readText(request(second.stream), LARGE * 2, budget);
    second.release();
    expect(await codeOf(refused)).toBe("server_busy");
    first.release();
    expect((await reading).length).toBe(4 * chunk);
    expect(budget.inUse).toBe(0);
    const third = heldBody(4, chunk);
    third.release();
    expect((await readText(request(third.stream), LARGE * 2, budget)).length).toBe(4 * chunk);
    expect(budget.inUse).toBe(0);
  });

  it("refuses a declared length the budget cannot hold before reading a byte", async () => {
    const budget = new BodyBudget(LARGE);
    const body = heldBody(8, BODY_BUDGET_THRESHOLD_BYTES);
    const declared = String(LARGE + 1);
    expect(await codeOf(readText(request(body.stream, { "content-length": declared }), LARGE * 2, budget))).toBe("server_busy");
    expect(body.sent()).toBeLessThanOrEqual(1);
    expect(budget.inUse).toBe(0);
  });

  it("gives the bytes back after a body over the cap, a broken stream and bytes that are not UTF-8", async () => {
    const budget = new BodyBudget(LARGE * 10);
    const tooLong = heldBody(8, BODY_BUDGET_THRESHOLD_BYTES);
    tooLong.release();
    expect(await codeOf(readText(request(tooLong.stream), LARGE, budget))).toBe("payload_too_large");
    expect(budget.inUse).toBe(0);

    let pulls = 0;
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls += 1;
        if (pulls > 3) return controller.error(new Error("connection reset"));
        controller.enqueue(new Uint8Array(BODY_BUDGET_THRESHOLD_BYTES));
      },
    });
    await expect(readText(request(broken), LARGE * 2, budget)).rejects.toThrow("connection reset");
    expect(budget.inUse).toBe(0);

    const notUtf8 = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(BODY_BUDGET_THRESHOLD_BYTES * 2).fill(0xff));
        controller.close();
      },
    });
    expect(await codeOf(readText(request(notUtf8), LARGE, budget))).toBe("bad_request");
    expect(budget.inUse).toBe(0);
  });

  it("does not count small bodies, and is one budget for the whole process", async () => {
    const budget = new BodyBudget(1);
    expect(await readText(request('{"a":1}'), LARGE, budget)).toBe('{"a":1}');
    expect(bodyBudget()).toBe(bodyBudget());
    expect(bodyBudget().capacity).toBeGreaterThanOrEqual(LARGE * 64);
  });
});
