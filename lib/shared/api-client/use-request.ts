"use client";

import { useCallback, useMemo, useRef, useState } from "react";

/*
 * One request a form sends (a CPF lookup, a KYC session, an SMS code), and its answer kept in the component that
 * shows it. The forms of /kyc and /lookups/cpf keep no answer in a cache and read no query: react-query's mutation
 * brought its whole client into their first load (about 12 kB gzip) for what is a status and an answer. This is that
 * status and answer, with the same shape (`mutate`, `reset`, `status`, `data`, `error`), so the forms read as before.
 *
 * The same state serves the top bar's search (lib/cases/search.ts), on every page.
 *
 * The latest send wins: an answer to a send that another send or a reset came after is dropped, and its callbacks do
 * not run (react-query's mutation observer does the same).
 */

export interface RequestCallbacks<Output> {
  onSuccess?: (data: Output) => void;
  onError?: (error: Error) => void;
  /** After `onSuccess` or `onError`, whichever ran: where a form clears what it set for the send (a busy row). */
  onSettled?: () => void;
}

interface RequestActions<Input, Output> {
  mutate: (input: Input, callbacks?: RequestCallbacks<Output>) => void;
  reset: () => void;
}

/** What a form reads: a union on `status` (so `isSuccess` narrows `data`, as react-query's result does). */
export type RequestState<Input, Output> = RequestActions<Input, Output> &
  (
    | { status: "idle" | "pending"; data: undefined; error: null; isPending: boolean; isSuccess: false; isError: false }
    | { status: "success"; data: Output; error: null; isPending: false; isSuccess: true; isError: false }
    | { status: "error"; data: undefined; error: Error; isPending: false; isSuccess: false; isError: true }
  );

type Settled<Output> = { status: "idle" | "pending" } | { status: "success"; data: Output } | { status: "error"; error: Error };

/** The view of a settled state a form reads. */
function viewOf<Output>(state: Settled<Output>): Omit<RequestState<never, Output>, keyof RequestActions<never, Output>> {
  if (state.status === "success")
    return { status: "success", data: state.data, error: null, isPending: false, isSuccess: true, isError: false };
  if (state.status === "error")
    return { status: "error", data: undefined, error: state.error, isPending: false, isSuccess: false, isError: true };
  return { status: state.status, data: undefined, error: null, isPending: state.status === "pending", isSuccess: false, isError: false };
}

export function useRequest<Input, Output>(send: (input: Input) => Promise<Output>): RequestState<Input, Output> {
  const [state, setState] = useState<Settled<Output>>({ status: "idle" });
  // Which send is the latest: a number each send and each reset moves on.
  const latest = useRef(0);

  const mutate = useCallback(
    (input: Input, callbacks: RequestCallbacks<Output> = {}) => {
      const mine = ++latest.current;
      setState({ status: "pending" });
      send(input).then(
        (data) => {
          if (mine !== latest.current) return;
          setState({ status: "success", data });
          callbacks.onSuccess?.(data);
          callbacks.onSettled?.();
        },
        (thrown: unknown) => {
          if (mine !== latest.current) return;
          // What a send rejects with is an Error (lib/shared/api-client/api-request.ts's ApiRequestError, a network
          // failure); anything else is wrapped, so a form always has a message to show.
          const error = thrown instanceof Error ? thrown : new Error(String(thrown));
          setState({ status: "error", error });
          callbacks.onError?.(error);
          callbacks.onSettled?.();
        },
      );
    },
    [send],
  );
  const reset = useCallback(() => {
    latest.current += 1;
    setState({ status: "idle" });
  }, []);

  return useMemo(() => ({ ...viewOf(state), mutate, reset }) as RequestState<Input, Output>, [state, mutate, reset]);
}
