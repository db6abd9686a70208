import { useCallback, useRef, useState } from "react";

import type { SearchResponse } from "@/lib/cases/types";
import type { SearchInput } from "@/lib/cases/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";

/*
 * The top bar's search (components/cases/case-search.tsx), on every signed-in page: a plain request with its state,
 * not a react-query mutation, so the shell's first load carries none of react-query (nothing is cached: each search
 * is asked again). The CPF goes in the POST body, never in a URL or a query key.
 */

interface SearchState {
  data: SearchResponse | undefined;
  error: Error | null;
  isPending: boolean;
}

const IDLE: SearchState = { data: undefined, error: null, isPending: false };

export function useSearch() {
  const [state, setState] = useState<SearchState>(IDLE);
  // Only the latest search's answer is shown: an earlier one that answers late is dropped.
  const latest = useRef(0);
  const mutate = useCallback((input: SearchInput, { onSuccess }: { onSuccess?: (answer: SearchResponse) => void } = {}) => {
    const call = ++latest.current;
    setState({ ...IDLE, isPending: true });
    apiRequest<SearchResponse>("/api/search", { method: "POST", body: input }).then(
      (data) => {
        if (call !== latest.current) return;
        setState({ ...IDLE, data });
        onSuccess?.(data);
      },
      (error: unknown) => {
        if (call !== latest.current) return;
        setState({ ...IDLE, error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  }, []);
  return { ...state, mutate };
}
