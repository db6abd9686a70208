import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { router, setUrl } from "@/test/navigation";

import { useRefreshingRequest } from "./use-refreshing-request";

/*
 * A request on a page the server draws: the page is drawn again (router.refresh) after the answer, or only after a
 * refusal when asked so, and never before the answer is in (a refresh that raced the request would draw the old list).
 */

function deferred() {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe("useRefreshingRequest", () => {
  it("draws the page again once the request has succeeded, not while it runs", async () => {
    setUrl("/admin/integrations");
    const answer = deferred();
    const { result } = renderHook(() => useRefreshingRequest((_input: string) => answer.promise));
    act(() => result.current.mutate("x"));
    expect(router.refresh).not.toHaveBeenCalled();
    await act(async () => answer.resolve("done"));
    expect(result.current.data).toBe("done");
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("draws it again after a refusal too, and keeps the refusal for the form", async () => {
    setUrl("/admin/integrations");
    const answer = deferred();
    const { result } = renderHook(() => useRefreshingRequest((_input: string) => answer.promise));
    act(() => result.current.mutate("x"));
    await act(async () => answer.reject(new Error("conflict")));
    expect(result.current.error?.message).toBe("conflict");
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("asked to refresh after errors only, leaves the page alone after a success", async () => {
    setUrl("/admin/integrations");
    const ok = deferred();
    const { result } = renderHook(() => useRefreshingRequest((_input: string) => ok.promise, "error"));
    act(() => result.current.mutate("x"));
    await act(async () => ok.resolve("key"));
    expect(result.current.data).toBe("key");
    expect(router.refresh).not.toHaveBeenCalled();

    const refused = deferred();
    const second = renderHook(() => useRefreshingRequest((_input: string) => refused.promise, "error"));
    act(() => second.result.current.mutate("x"));
    await act(async () => refused.reject(new Error("gone")));
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });
});
