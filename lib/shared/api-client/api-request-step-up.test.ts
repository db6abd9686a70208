import { afterEach, describe, expect, it, vi } from "vitest";

import { rejection } from "@/test/rejection";

import { apiRequest, ApiRequestError } from "./api-request";
import { BACKGROUND_HEADER } from "./background";
import { requestStepUp, setStepUpHandler, type StepUpHandler } from "./step-up-registry";

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
  vi.unstubAllGlobals();
});

const STEP_UP = { error: { code: "step_up_required", message: "Confirm it is you." } };

/** fetch answering each call with the next of `answers` (status, body). */
function answers(...list: Array<[number, unknown]>) {
  const queue = [...list];
  const mock = vi.fn(async () => {
    const [status, body] = queue.shift() ?? [500, undefined];
    return new Response(body === undefined ? null : JSON.stringify(body), { status });
  });
  vi.stubGlobal("fetch", mock);
  return mock;
}

function handler(fn: StepUpHandler) {
  const spy = vi.fn(fn);
  unregister = setStepUpHandler(spy);
  return spy;
}

const refusal = (promise: Promise<unknown>) => rejection(promise, ApiRequestError);

describe("step-up in apiRequest", () => {
  it("asks once, then sends the same request again once the member verified, and answers the retry", async () => {
    const fetchMock = answers([401, STEP_UP], [201, { created: 1 }]);
    const ask = handler(async () => ({ verified: true }));
    await expect(apiRequest("/api/integrations", { method: "POST", body: { label: "Shop" } })).resolves.toEqual({ created: 1 });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(ask.mock.calls[0]![0]).toMatchObject({ status: 401, code: "step_up_required" });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const [first, second] = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>;
    expect(second![0]).toBe(first![0]);
    expect(second![1]).toMatchObject({ method: "POST", body: '{"label":"Shop"}' });
  });

  it("does not send again when the member cancels, and fails with step_up_required in the dialog's words", async () => {
    const fetchMock = answers([401, STEP_UP]);
    handler(async () => ({ verified: false, message: "Não foi feito." }));
    const error = await refusal(apiRequest("/api/staff", { method: "POST", body: {} }));
    expect(error).toMatchObject({ status: 401, code: "step_up_required", message: "Não foi feito." });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("does not loop when the retry is refused again: one question, two requests, then the refusal", async () => {
    const fetchMock = answers([401, STEP_UP], [401, STEP_UP], [201, {}]);
    const ask = handler(async () => ({ verified: true }));
    const error = await refusal(apiRequest("/api/roles", { method: "POST", body: {} }));
    expect(error).toMatchObject({ status: 401, code: "step_up_required" });
    expect(ask).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("keeps the refusal without a handler, and never asks for other 401s or for the dialog's own calls", async () => {
    answers([401, STEP_UP]);
    expect(await refusal(apiRequest("/api/x"))).toMatchObject({ code: "step_up_required", message: "Confirm it is you." });

    const ask = handler(async () => ({ verified: true }));
    answers([401, { error: { code: "unauthenticated", message: "Signed out" } }]);
    expect(await refusal(apiRequest("/api/x"))).toMatchObject({ code: "unauthenticated" });
    answers([401, STEP_UP]);
    expect(await refusal(apiRequest("/api/account/step-up", { method: "POST", body: {}, stepUp: false }))).toMatchObject({
      code: "step_up_required",
    });
    expect(ask).not.toHaveBeenCalled();
  });

  it("shares one question between calls refused at the same time, and asks anew afterwards", async () => {
    let verify: (() => void) | undefined;
    const ask = handler(() => new Promise((resolve) => (verify = () => resolve({ verified: true }))));
    const refused = new ApiRequestError(401, "step_up_required", "x");
    const first = requestStepUp(refused);
    const second = requestStepUp(refused);
    await vi.waitFor(() => expect(verify).toBeDefined());
    verify!();
    await expect(Promise.all([first, second])).resolves.toEqual([{ verified: true }, { verified: true }]);
    expect(ask).toHaveBeenCalledTimes(1);
    const again = requestStepUp(refused);
    expect(ask).toHaveBeenCalledTimes(2);
    verify!();
    await expect(again).resolves.toEqual({ verified: true });
  });

  it("treats a handler that throws as a cancellation", async () => {
    answers([401, STEP_UP]);
    handler(async () => {
      throw new Error("dialog broke");
    });
    expect(await refusal(apiRequest("/api/x", { method: "POST", body: {} }))).toMatchObject({ code: "step_up_required" });
  });

  it("sends the background header a caller passes", async () => {
    const fetchMock = answers([200, {}]);
    await apiRequest("/api/verification-events", { headers: { [BACKGROUND_HEADER]: "1" } });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers).toMatchObject({ "x-kyc-background": "1" });
  });
});
