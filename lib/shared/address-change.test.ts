import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { changeAddress } from "./address-change";

/*
 * Next's router wraps history.pushState and replaceState in an effect after hydration. Here a bound function stands
 * for the browser's own (a bound function prints as native code) and a plain wrapper for the router's.
 */

const calls: Array<[string, string]> = [];
const history = { pushState: (() => undefined) as unknown, replaceState: (() => undefined) as unknown };

function browserOwn() {
  history.pushState = function pushState(_data: unknown, _unused: string, url: string) {
    calls.push(["push", url]);
  }.bind(null);
  history.replaceState = function replaceState(_data: unknown, _unused: string, url: string) {
    calls.push(["replace", url]);
  }.bind(null);
}

function routerWraps() {
  const [push, replace] = [history.pushState as (...args: unknown[]) => void, history.replaceState as (...args: unknown[]) => void];
  history.pushState = (...args: unknown[]) => push(...args);
  history.replaceState = (...args: unknown[]) => replace(...args);
}

beforeEach(() => {
  vi.useFakeTimers();
  calls.length = 0;
  browserOwn();
  vi.stubGlobal("window", { history });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("changeAddress", () => {
  it("changes the address at once when the router follows history", () => {
    routerWraps();
    changeAddress("/verifications?sort=-risk_score", "replace");
    changeAddress("/verifications?status=review", "push");
    expect(calls).toEqual([
      ["replace", "/verifications?sort=-risk_score"],
      ["push", "/verifications?status=review"],
    ]);
  });

  it("waits for the router to wrap history when pressed before it has, then changes the address once", () => {
    changeAddress("/verifications?sort=-risk_score", "replace");
    vi.advanceTimersByTime(50);
    expect(calls).toEqual([]);
    routerWraps();
    vi.advanceTimersByTime(10);
    expect(calls).toEqual([["replace", "/verifications?sort=-risk_score"]]);
    vi.advanceTimersByTime(2_000);
    expect(calls).toHaveLength(1);
  });

  it("does not wait more than a second for a router that never comes", () => {
    changeAddress("/admin/audit?action=auth.sign_in", "push");
    vi.advanceTimersByTime(990);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(20);
    expect(calls).toEqual([["push", "/admin/audit?action=auth.sign_in"]]);
  });
});
