import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { PAGE_VIEW_HEADER } from "@/lib/shared/page-view";
import { stubTestEnvironment } from "@/test/db";

import { requestContext } from "./context";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

describe("requestContext", () => {
  it("adopts the browser's well-formed page view", () => {
    const sent = "abcdefghijklmnopqrst";
    expect(requestContext(null, new Headers({ [PAGE_VIEW_HEADER]: sent })).pageView).toBe(sent);
  });

  it("makes its own page view when none (or a malformed one) came, only when read, and keeps it for the request", () => {
    const draw = vi.spyOn(crypto, "getRandomValues");
    try {
      const context = requestContext({ id: "m1", email: "m@example.test" }, new Headers({ [PAGE_VIEW_HEADER]: "123" }));
      expect(draw).not.toHaveBeenCalled();
      const first = context.pageView;
      expect(first).toMatch(/^[a-z]{20}$/);
      // Every event of the request names the same view, read directly or through a copy.
      expect(context.pageView).toBe(first);
      expect({ ...context }.pageView).toBe(first);
      expect(draw).toHaveBeenCalledTimes(1);
    } finally {
      draw.mockRestore();
    }
  });
});
