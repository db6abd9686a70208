// Where `npm run dev` and `npm run demo` listen (scripts/run.mjs): on loopback unless HOST says otherwise,
// because the embedded default's demo passwords are public. Also the addresses the dashboard and the
// sandbox use to reach each other, which follow the bound host.
import net from "node:net";

export const DEFAULT_HOST = "127.0.0.1";

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** The address to bind: HOST when set, else loopback. A value that is not a host name or IP address throws. */
export function listenHost(env = process.env) {
  const raw = (env.HOST ?? "").trim();
  if (raw === "") return DEFAULT_HOST;
  if (net.isIP(raw) !== 0 || HOST_NAME.test(raw)) return raw;
  throw new Error(`HOST must be a host name or an IP address, not ${JSON.stringify(raw)}`);
}

/** Every address of every interface. */
export function isWildcard(host) {
  return host === "0.0.0.0" || host === "::";
}

/** Only this machine can connect. */
export function isLoopback(host) {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The host part of a URL that reaches, from this machine, a server bound to `host`. */
export function connectHost(host) {
  if (isWildcard(host)) return DEFAULT_HOST;
  return net.isIPv6(host) ? `[${host}]` : host;
}

/** The arguments of `next dev` (mode dev) or `next start` (mode demo), bound to `host`. */
export function nextArgs(mode, port, host) {
  if (mode === "dev") return ["dev", "-p", String(port), "-H", host];
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s): a client reusing a connection the server is
  // closing at that moment gets ECONNRESET, and load balancers expect the server to outlast their own 60 s idle timeout.
  return ["start", "-p", String(port), "-H", host, "--keepAliveTimeout", "65000"];
}
