import { describe, expect, it } from "vitest";

import { clientAddress, normaliseAddress, PEER_HEADER, UNKNOWN_ADDRESS } from "./client-address";

describe("client address", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For says", () => {
    const headers = new Headers({ [PEER_HEADER]: "198.51.100.7", "x-forwarded-for": "10.9.8.7" });
    expect(clientAddress(headers, [])).toBe("198.51.100.7");
  });

  it("believes X-Forwarded-For only through trusted proxies, reading from the nearest hop", () => {
    const headers = { [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "6.6.6.6, 203.0.113.5, 10.0.0.1" };
    // The client could have forged 6.6.6.6; 10.0.0.1 is our own second proxy; 203.0.113.5 reached it.
    expect(clientAddress(headers, ["10.0.0.2", "10.0.0.1"])).toBe("203.0.113.5");
    expect(clientAddress(headers, ["10.0.0.3"])).toBe("10.0.0.2");
  });

  it("falls back to the peer when the forwarded chain is garbled or empty", () => {
    expect(clientAddress({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "not-an-ip" }, ["10.0.0.2"])).toBe("10.0.0.2");
    expect(clientAddress({ [PEER_HEADER]: "10.0.0.2" }, ["10.0.0.2"])).toBe("10.0.0.2");
  });

  it("is unknown without a peer (never a client-sent header)", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "1.2.3.4" }), [])).toBe(UNKNOWN_ADDRESS);
  });

  it("normalises IPv4-mapped, bracketed and ported forms", () => {
    expect(normaliseAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normaliseAddress("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normaliseAddress("192.0.2.1:8080")).toBe("192.0.2.1");
    expect(normaliseAddress("evil")).toBeUndefined();
  });
});
