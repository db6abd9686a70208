import { renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";

import { requiredContext } from "./required-context";

describe("requiredContext: a context only its provider's subtree reads", () => {
  const [Provider, useValue] = requiredContext<{ count: number }>("CountingProvider");

  it("gives the provider's value to a component inside it", () => {
    const wrapper = ({ children }: { children: ReactNode }) => <Provider value={{ count: 3 }}>{children}</Provider>;
    const { result } = renderHook(() => useValue(), { wrapper });
    expect(result.current).toEqual({ count: 3 });
  });

  it("throws, naming the provider, for a component drawn outside it", () => {
    // React reports the thrown error on the console too; the test reads the error, not that report.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(() => renderHook(() => useValue())).toThrow("read outside CountingProvider");
    quiet.mockRestore();
  });

  it("keeps each context apart: another one's provider does not serve it", () => {
    const [OtherProvider] = requiredContext<{ count: number }>("OtherProvider");
    const wrapper = ({ children }: { children: ReactNode }) => <OtherProvider value={{ count: 1 }}>{children}</OtherProvider>;
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(() => renderHook(() => useValue(), { wrapper })).toThrow("read outside CountingProvider");
    quiet.mockRestore();
  });
});
