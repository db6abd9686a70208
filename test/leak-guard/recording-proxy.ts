import http from "node:http";
import type { AddressInfo } from "node:net";

/*
 * A pass-through HTTP proxy in front of the sandbox that records every exchange the dashboard's upstream
 * clients make (request URL, headers and body, response status and body), whatever HTTP client they use.
 * The leak guard takes the run's real secrets from these exchanges: bearer tokens, signed file URLs,
 * widget addresses, key values the upstream issued.
 */

export interface UpstreamExchange {
  method: string;
  /** The sandbox's own address of the request (what the client would have called without the proxy). */
  url: string;
  requestHeaders: Array<[string, string]>;
  requestBody: string;
  status: number;
  responseBody: string | null;
}

export interface RecordingProxy {
  url: string;
  /** Exchanges from now on go to this list (each harness run keeps its own). */
  recordInto(list: UpstreamExchange[] | undefined): void;
  stop(): Promise<void>;
}

const TEXTUAL = /^(application\/(json|problem\+json|javascript|xml)|text\/|image\/svg\+xml)/i;

function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** A request body as searchable text; a multipart form as `name=value&…`, files named but not read. */
async function bodyText(body: Buffer, contentType: string | undefined): Promise<string> {
  if (body.length === 0) return "";
  if (contentType?.startsWith("multipart/form-data")) {
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    return [...form.entries()].map(([name, value]) => `${name}=${typeof value === "string" ? value : `[file ${value.name}]`}`).join("&");
  }
  return body.toString("utf8");
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const base = new URL(target);
  let sink: UpstreamExchange[] | undefined;
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const requestBody = await readAll(incoming);
      const headers = { ...incoming.headers, host: base.host };
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const forward = http.request(
          { protocol: base.protocol, hostname: base.hostname, port: base.port, method: incoming.method, path: incoming.url, headers },
          resolve,
        );
        forward.on("error", reject);
        forward.end(requestBody);
      });
      const responseBody = await readAll(answer);
      sink?.push({
        method: incoming.method ?? "GET",
        url: new URL(incoming.url ?? "/", base).toString(),
        requestHeaders: Object.entries(incoming.headers).flatMap(([name, value]) =>
          (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((item): [string, string] => [name, item]),
        ),
        requestBody: await bodyText(requestBody, incoming.headers["content-type"]),
        status: answer.statusCode ?? 0,
        responseBody: TEXTUAL.test(answer.headers["content-type"] ?? "") ? responseBody.toString("utf8") : null,
      });
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      outgoing.end(responseBody);
    } catch {
      // The sandbox went away (a failure flow stops it on purpose): answer as a dead upstream would.
      outgoing.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    recordInto(list) {
      sink = list;
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
