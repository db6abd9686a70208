import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";

import { installPeerAddressHeader, warnIfForwardingIgnored } from "@/lib/auth/server/peer-address";
import { setLogSink, type LogLevel } from "@/lib/log";
import { restoreConfigEnv } from "@/test/config";
import { stubTestEnvironment } from "@/test/db";

import { clientAddress, forwardingHeadersIn, normaliseAddress, PEER_HEADER, UNKNOWN_ADDRESS } from "./client-address";

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

describe("forwarding headers while no proxy is trusted", () => {
  // The once-per-process flag lives in this process-wide slot (lib/auth/server/peer-address.ts).
  const slot = globalThis as typeof globalThis & { __kycForwardingWarned?: boolean };
  let lines: Array<{ level: LogLevel; entry: Record<string, unknown> }>;

  beforeEach(() => {
    slot.__kycForwardingWarned = false;
    lines = [];
    setLogSink((level, line) => lines.push({ level, entry: JSON.parse(line) as Record<string, unknown> }));
  });
  afterEach(() => setLogSink(undefined));
  afterAll(() => {
    slot.__kycForwardingWarned = false;
    restoreConfigEnv();
  });

  it("names the forwarding headers a request carries", () => {
    expect(forwardingHeadersIn({ "x-forwarded-for": "1.2.3.4", "x-real-ip": "1.2.3.4" })).toEqual(["x-forwarded-for", "x-real-ip"]);
    expect(forwardingHeadersIn(new Headers({ forwarded: "for=1.2.3.4" }))).toEqual(["forwarded"]);
    expect(forwardingHeadersIn({ [PEER_HEADER]: "10.0.0.2", "x-forwarded-for": "" })).toEqual([]);
  });

  it("warns once per process, saying the headers are ignored and how to set TRUSTED_PROXIES", () => {
    expect(warnIfForwardingIgnored({ "user-agent": "x" }, () => [])).toBe(false);
    expect(warnIfForwardingIgnored({ forwarded: "for=203.0.113.9" }, () => [])).toBe(true);
    expect(warnIfForwardingIgnored({ "x-forwarded-for": "203.0.113.9" }, () => [])).toBe(false);
    expect(lines).toHaveLength(1);
    const [{ level, entry }] = lines as [(typeof lines)[number]];
    expect(level).toBe("warn");
    expect(entry).toMatchObject({ event: "forwarding_headers_ignored", headers: ["forwarded"] });
    expect(entry.message).toMatch(/ignored/);
    expect(entry.message).toMatch(/set TRUSTED_PROXIES to its addresses/);
  });

  it("stays quiet when proxies are trusted", () => {
    expect(warnIfForwardingIgnored({ "x-real-ip": "203.0.113.9" }, () => ["10.0.0.2"])).toBe(false);
    expect(lines).toHaveLength(0);
  });

  it("is checked on every request the server receives, with the configured TRUSTED_PROXIES", async () => {
    stubTestEnvironment({ TRUSTED_PROXIES: "" });
    installPeerAddressHeader();
    const seen: Array<string | undefined> = [];
    const server = http.createServer((request, response) => {
      seen.push(request.headers[PEER_HEADER] as string | undefined);
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const get = (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/`, { headers }).then((response) => response.text());
      await get({});
      expect(lines).toHaveLength(0);
      await get({ "X-Forwarded-For": "203.0.113.9" });
      await get({ "X-Real-IP": "203.0.113.9" });
      expect(lines.map(({ entry }) => entry.event)).toEqual(["forwarding_headers_ignored"]);
      expect(seen).toEqual(["127.0.0.1", "127.0.0.1", "127.0.0.1"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
