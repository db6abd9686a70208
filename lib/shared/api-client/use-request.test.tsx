import { act, renderHook, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { useRequest } from "./use-request";

/** A send whose answers the test gives, one per call, in any order. */
function controlledSend() {
  const calls: Array<{ input: string; resolve: (value: string) => void; reject: (error: Error) => void }> = [];
  const send = (input: string) =>
    new Promise<string>((resolve, reject) => {
      calls.push({ input, resolve, reject });
    });
  return { send, calls };
}

describe("useRequest: a form's one request and its answer", () => {
  it("goes idle, pending, success, with the answer and the send's callback", async () => {
    const { send, calls } = controlledSend();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useRequest(send));
    expect(result.current).toMatchObject({ status: "idle", data: undefined, error: null, isPending: false });
    act(() => result.current.mutate("12345678909", { onSuccess }));
    expect(result.current).toMatchObject({ status: "pending", isPending: true });
    await act(async () => calls[0]!.resolve("found"));
    expect(result.current).toMatchObject({ status: "success", data: "found", isSuccess: true, isPending: false });
    expect(onSuccess).toHaveBeenCalledWith("found");
  });

  it("keeps a refusal as its error and calls onError with it", async () => {
    const { send, calls } = controlledSend();
    const onError = vi.fn();
    const { result } = renderHook(() => useRequest(send));
    act(() => result.current.mutate("x", { onError }));
    const refusal = new Error("refused");
    await act(async () => calls[0]!.reject(refusal));
    expect(result.current).toMatchObject({ status: "error", error: refusal, isError: true, data: undefined });
    expect(onError).toHaveBeenCalledWith(refusal);
  });

  it("calls onSettled once after either answer, after that answer's own callback", async () => {
    const { send, calls } = controlledSend();
    const order: string[] = [];
    const callbacks = {
      onSuccess: () => order.push("success"),
      onError: () => order.push("error"),
      onSettled: () => order.push("settled"),
    };
    const { result } = renderHook(() => useRequest(send));
    act(() => result.current.mutate("a", callbacks));
    await act(async () => calls[0]!.resolve("found"));
    act(() => result.current.mutate("b", callbacks));
    await act(async () => calls[1]!.reject(new Error("refused")));
    expect(order).toEqual(["success", "settled", "error", "settled"]);
  });

  it("does not call onSettled for a send a later send superseded", async () => {
    const { send, calls } = controlledSend();
    const first = vi.fn();
    const { result } = renderHook(() => useRequest(send));
    act(() => result.current.mutate("first", { onSettled: first }));
    act(() => result.current.mutate("second"));
    await act(async () => calls[0]!.reject(new Error("late")));
    expect(first).not.toHaveBeenCalled();
  });

  it("wraps a rejection that is not an Error, so the form has a message to show", async () => {
    const { result } = renderHook(() => useRequest((_input: string) => Promise.reject("offline")));
    act(() => result.current.mutate("x"));
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(Error);
    expect(result.current.error?.message).toBe("offline");
  });

  it("lets the latest send win: an earlier answer arriving later is dropped, its callback not run", async () => {
    const { send, calls } = controlledSend();
    const first = vi.fn();
    const second = vi.fn();
    const { result } = renderHook(() => useRequest(send));
    act(() => result.current.mutate("first", { onSuccess: first }));
    act(() => result.current.mutate("second", { onSuccess: second }));
    await act(async () => calls[1]!.resolve("second answer"));
    await act(async () => calls[0]!.resolve("first answer"));
    expect(result.current.data).toBe("second answer");
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
  });

  it("reset goes back to idle and drops the answer still on its way", async () => {
    const { send, calls } = controlledSend();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useRequest(send));
    act(() => result.current.mutate("x", { onSuccess }));
    act(() => result.current.reset());
    await act(async () => calls[0]!.resolve("late"));
    expect(result.current).toMatchObject({ status: "idle", data: undefined });
    expect(onSuccess).not.toHaveBeenCalled();
  });

  it("sends through the latest send function it was given", async () => {
    const { result, rerender } = renderHook(({ send }) => useRequest(send), {
      initialProps: { send: (input: string) => Promise.resolve(`a:${input}`) },
    });
    rerender({ send: (input: string) => Promise.resolve(`b:${input}`) });
    act(() => result.current.mutate("1"));
    await waitFor(() => expect(result.current.data).toBe("b:1"));
  });
});
