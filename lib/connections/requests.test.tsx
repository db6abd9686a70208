import { afterEach, describe, expect, it } from "vitest";

import { tabQueryClient } from "@/lib/shared/api-client/query-client";
import { registerTabCache } from "@/lib/shared/api-client/tab-cache";
import { apiError, mockApi } from "@/test/render";

import { changeConnection, connectionKeys, testConnection } from "./requests";

/*
 * A connection changed on the connections page (drawn on the server, no react-query) marks the tab's cached list
 * stale, so a form that offers connections (the create-verification dialog's flow picker) lists what the page shows.
 */

const cachedList = () => tabQueryClient().getQueryState(connectionKeys.list());

describe("the connections' requests and the tab's cached list", () => {
  afterEach(() => tabQueryClient().clear());

  it("marks the cached list stale once a change is answered", async () => {
    mockApi({ "PATCH /api/connections/c1": { connection: { id: "c1" } } });
    tabQueryClient().setQueryData(connectionKeys.list(), { connections: [] });
    expect(cachedList()?.isInvalidated).toBe(false);
    await changeConnection({ id: "c1", change: { name: "Store" } });
    expect(cachedList()?.isInvalidated).toBe(true);
  });

  it("marks it stale after a refusal too: the list may have changed meanwhile", async () => {
    mockApi({ "POST /api/connections/c1/test": apiError(409, { code: "conflict", message: "Retired." }) });
    tabQueryClient().setQueryData(connectionKeys.list(), { connections: [] });
    await expect(testConnection("c1")).rejects.toThrow("Retired.");
    expect(cachedList()?.isInvalidated).toBe(true);
  });

  it("sends the change and answers it when the tab has no cache", async () => {
    registerTabCache(null);
    try {
      const api = mockApi({ "PATCH /api/connections/c1": { connection: { id: "c1", name: "Store" } } });
      await expect(changeConnection({ id: "c1", change: { name: "Store" } })).resolves.toEqual({ connection: { id: "c1", name: "Store" } });
      expect(api.callsTo("PATCH /api/connections/c1")).toHaveLength(1);
    } finally {
      // The tab's client, made once per module, registered again for the other tests.
      registerTabCache(tabQueryClient());
    }
  });
});
