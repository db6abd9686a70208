import { describe, expect, it } from "vitest";

import { connectHost, isLoopback, listenHost, nextArgs } from "./listen.mjs";

/* Where `npm run dev` / `npm run demo` bind (scripts/run.mjs builds the next and sandbox settings from these). */

describe("listen host", () => {
  it("is loopback unless HOST says otherwise: the demo passwords are public", () => {
    expect(listenHost({})).toBe("127.0.0.1");
    expect(listenHost({ HOST: "" })).toBe("127.0.0.1");
    expect(listenHost({ HOST: "0.0.0.0" })).toBe("0.0.0.0");
    expect(listenHost({ HOST: "::" })).toBe("::");
    expect(listenHost({ HOST: "10.1.2.3" })).toBe("10.1.2.3");
    expect(listenHost({ HOST: "backoffice.internal" })).toBe("backoffice.internal");
  });

  it("refuses a HOST that is not a host name or an IP address", () => {
    for (const HOST of ["http://0.0.0.0", "0.0.0.0:3000", "a b", "-x", "host_name"]) expect(() => listenHost({ HOST })).toThrow(/HOST/);
  });

  it("binds next dev and next start to the host", () => {
    expect(nextArgs("dev", "3000", "127.0.0.1")).toEqual(["dev", "-p", "3000", "-H", "127.0.0.1"]);
    expect(nextArgs("demo", 3100, "0.0.0.0")).toEqual(["start", "-p", "3100", "-H", "0.0.0.0", "--keepAliveTimeout", "65000"]);
  });

  it("reaches a wildcard bind through loopback, an IPv6 address in brackets", () => {
    expect(connectHost("0.0.0.0")).toBe("127.0.0.1");
    expect(connectHost("::")).toBe("127.0.0.1");
    expect(connectHost("::1")).toBe("[::1]");
    expect(connectHost("10.1.2.3")).toBe("10.1.2.3");
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("0.0.0.0")).toBe(false);
    expect(isLoopback("10.1.2.3")).toBe(false);
  });
});
