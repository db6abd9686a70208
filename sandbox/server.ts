/*
 * Entry point: `npm run sandbox` (node --import tsx sandbox/server.ts). Reads the environment, generates
 * the data, listens on SANDBOX_HOST:SANDBOX_PORT (127.0.0.1 unless told otherwise; port 0: a random one)
 * and prints `sandbox listening on http://127.0.0.1:PORT`. SIGTERM and SIGINT close every connection, held
 * ones included, and exit.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

import { createDispatcher } from "./app";
import { reachableHost, readConfig, type SandboxConfig } from "./config";
import { warmUp } from "./core";
import { SandboxState } from "./state";

let config: SandboxConfig;
try {
  config = readConfig();
} catch (error) {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const started = performance.now();
const state = new SandboxState(config);
warmUp(state);
const generatedIn = Math.round(performance.now() - started);
const dispatcher = createDispatcher(state);
// Due webhook attempts and expiries, on the sandbox clock (POST /sandbox/clock moves it; this notices).
const background = setInterval(() => void state.events.tick(), 200);
background.unref();

const server = createServer((req, res) => {
  dispatcher.handle(req, res).catch((error: unknown) => {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end('{"message":"Internal sandbox error."}');
  });
});
// Idle keep-alive connections are kept a minute, as the load balancers in front of such services usually keep them
// (Node's own 5 s let a client reuse a socket the server was closing: a "socket closed" on a loaded test machine).
server.keepAliveTimeout = 65_000;

server.on("error", (error) => {
  console.error(`sandbox: cannot listen on ${config.host}:${config.port}: ${error.message}`);
  process.exit(1);
});

server.listen(config.port, config.host, () => {
  const { port } = server.address() as AddressInfo;
  state.publicBase = `http://${reachableHost(config.host)}:${port}`;
  console.log(`sandbox listening on ${state.publicBase}`);
  console.log(
    `sandbox: ${config.verifications} verifications for int_main/sandbox (+50 int_main/production, +50 int_other), seed ${config.seed}, generated in ${generatedIn} ms`,
  );
  if (config.faults) console.log("sandbox: fault injection enabled from the environment");
  if (config.webhookUrl) console.log(`sandbox: webhooks to ${config.webhookUrl}`);
});

let closing = false;
function shutdown(): void {
  if (closing) return;
  closing = true;
  clearInterval(background);
  state.webhooks.stop();
  server.close(() => process.exit(0));
  dispatcher.abortAll();
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
