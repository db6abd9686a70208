import http from "node:http";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";

import { resetLifecycle } from "@/test/lifecycle";

import { startDraining } from "./lifecycle";
import { noteServer } from "./listeners";

/*
 * A draining instance stops accepting connections (lib/runtime/listeners.ts), so a proxy with passive checks (nginx)
 * is refused at once and tries another instance, while the request already here is still answered.
 */

afterEach(() => resetLifecycle());

describe("draining closes the listener", () => {
  it("refuses new connections and still answers the request in flight", async () => {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = false;
    const server = http.createServer((request, response) => {
      if (request.url === "/slow") {
        arrived = true;
        void held.then(() => response.end("answered"));
      } else response.end("ok");
    });
    server.on("connection", () => noteServer(server));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const url = (path: string) => `http://127.0.0.1:${port}${path}`;
    try {
      const inFlight = fetch(url("/slow")).then((response) => response.text());
      // The slow request has arrived (its connection was noted) before the drain starts.
      await expect.poll(() => arrived).toBe(true);
      await startDraining();
      expect(server.listening).toBe(false);
      await expect(fetch(url("/"))).rejects.toThrow();
      release();
      await expect(inFlight).resolves.toBe("answered");
    } finally {
      release();
      server.closeAllConnections();
      if (server.listening) server.close();
    }
  });
});
