import { QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { makeQueryClient } from "@/lib/shared/api-client/query-client";
import { verificationQuery, verificationsQuery } from "@/lib/verifications/hooks";
import type { VerificationListResponse } from "@/lib/verifications/types";

import { ApiRequestError } from "./api-request";
import type { ServerError } from "./server-error";
import { seedServerError } from "./server-error-seed";

/*
 * A server page whose first fetch failed hands its error to the client (lib/shared/api-client/server-error.ts). With
 * the tab's real QueryClient settings and the hooks' real options, the observer (what useQuery mounts)
 * must show that error and start no fetch; only the retry (refetch) does. The control case shows the
 * same observer fetching at once when nothing was seeded, so the first assertion can fail.
 */

const timeout: ServerError = {
  status: 503,
  code: "upstream_unavailable",
  message: "The verification service is unavailable. Try again.",
  retryable: true,
  requestId: "req-7",
};

const listAnswer: VerificationListResponse = {
  items: [],
  pagination: { page: 1, perPage: 20, total: 0 },
  pagingAvailable: true,
  enrichment: {},
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn(async () => Response.json(listAnswer));
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe("a server page's failed first fetch", () => {
  it("list: shows the typed error with no fetch, and the retry fetches once", async () => {
    const client = makeQueryClient();
    const options = verificationsQuery({ per_page: 20, status: ["review"] });
    seedServerError(client, options.queryKey, timeout);
    const observer = new QueryObserver(client, options);
    const unsubscribe = observer.subscribe(() => {});

    const shown = observer.getCurrentResult();
    expect(shown.isError).toBe(true);
    expect(shown.fetchStatus).toBe("idle");
    expect(shown.error).toBeInstanceOf(ApiRequestError);
    expect(shown.error).toMatchObject({ status: 503, code: "upstream_unavailable", retryable: true, requestId: "req-7" });
    // Let any fetch the mount would have scheduled start.
    await Promise.resolve();
    expect(fetchMock).not.toHaveBeenCalled();

    const retried = await observer.refetch();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toMatch(/^\/api\/verifications\?.*status=review/);
    expect(retried.isSuccess).toBe(true);
    unsubscribe();
  });

  it("control: with nothing seeded the same observer fetches on mount", async () => {
    const client = makeQueryClient();
    const observer = new QueryObserver(client, verificationsQuery({ per_page: 20 }));
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    unsubscribe();
  });

  it("detail: no fetch on mount, not even from a second observer; the retry fetches", async () => {
    const client = makeQueryClient();
    const options = verificationQuery("abc123");
    seedServerError(client, options.queryKey, timeout);
    const first = new QueryObserver(client, options);
    const second = new QueryObserver(client, options);
    const unsubscribe = [first.subscribe(() => {}), second.subscribe(() => {})];
    await Promise.resolve();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(first.getCurrentResult().error?.code).toBe("upstream_unavailable");

    await first.refetch();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe("/api/verifications/abc123");
    unsubscribe.forEach((stop) => stop());
  });

  it("another filter's query is not held back: it fetches as usual", async () => {
    const client = makeQueryClient();
    seedServerError(client, verificationsQuery({ per_page: 20 }).queryKey, timeout);
    const observer = new QueryObserver(client, verificationsQuery({ per_page: 50 }));
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    unsubscribe();
  });

  it("never replaces what the cache already holds", () => {
    const client = makeQueryClient();
    const options = verificationsQuery({ per_page: 20 });
    client.setQueryData(options.queryKey, listAnswer);
    seedServerError(client, options.queryKey, timeout);
    expect(client.getQueryState(options.queryKey)).toMatchObject({ status: "success", error: null });
  });
});
