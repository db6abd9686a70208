import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * Tests only: a tiny local HTTP server standing in for an upstream, so the clients' timeouts, retries,
 * token handling and error parsing are exercised over real HTTP without the sandbox.
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The multipart or urlencoded form, parsed with the platform's own parser. */
  form(): Promise<FormData>;
  json(): unknown;
}

export type FakeHandler = (request: FakeRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  /** Requests whose path equals `path`. */
  count(path: string): number;
  close(): Promise<void>;
}

export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const body = Buffer.concat(chunks);
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        form: () =>
          new Request("http://fake/", {
            method: "POST",
            headers: { "content-type": req.headers["content-type"] ?? "" },
            body,
          }).formData(),
        json: () => JSON.parse(body.toString("utf8")),
      };
      requests.push(request);
      Promise.resolve(handler(request, res)).catch((error: unknown) => {
        res.statusCode = 599;
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => requests.filter((request) => request.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

/** An unsigned JWT with the given claims (the clients read `exp`/`iat`, they never check signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}.c2lnbmF0dXJl`;
}
