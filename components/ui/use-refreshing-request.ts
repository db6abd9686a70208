"use client";

import { startTransition, useCallback } from "react";

import { useRequest, type RequestState } from "@/lib/shared/api-client/use-request";

import { useAppRouter } from "./app-link";

/*
 * A form's request on a page the server draws (the integration keys): its status and answer stay in the form
 * (lib/shared/api-client/use-request.ts), and what the page shows is drawn again by the server (Next's router.refresh, in a transition,
 * so what is on screen stays until the new drawing arrives) once the request has settled, or only when it failed
 * (a refused reveal means the list changed). No client cache holds the page's data.
 */
export function useRefreshingRequest<Input, Output>(
  send: (input: Input) => Promise<Output>,
  refreshAfter: "settled" | "error" = "settled",
): RequestState<Input, Output> {
  const router = useAppRouter();
  const sendThenRefresh = useCallback(
    async (input: Input) => {
      const refresh = () => startTransition(() => router.refresh());
      try {
        const output = await send(input);
        if (refreshAfter === "settled") refresh();
        return output;
      } catch (error) {
        refresh();
        throw error;
      }
    },
    [router, send, refreshAfter],
  );
  return useRequest(sendThenRefresh);
}
