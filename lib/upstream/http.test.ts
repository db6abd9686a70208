import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";

import { redact, redactText, registerSecrets, setLogSink } from "@/lib/log";
import { parseErrorBody } from "@/lib/upstream/error-body";
import { UpstreamError, UpstreamForbiddenError, UpstreamRateLimitedError } from "@/lib/upstream/errors";
import { HttpClient, type HttpClientOptions, type UpstreamRequest } from "@/lib/upstream/http";
import { sendJson, startFakeServer, type FakeServer } from "@/test/fake-upstream";
import { rejection } from "@/test/rejection";

/** The base client with its protected request() opened for tests. */
class TestClient extends HttpClient {
  constructor(options: HttpClientOptions, secrets: string[] = []) {
    super("core", options, secrets);
  }
  call<T>(request: UpstreamRequest<T>) {
    return this.request(request);
  }
}

const okSchema = z.looseObject({ ok: z.boolean() });
const get = { method: "GET", operation: "thing", route: "/thing", path: "/thing", schema: okSchema } as const;
const post = { method: "POST", operation: "thing", route: "/thing", path: "/thing", form: { a: "1" }, schema: okSchema } as const;

const failure = (promise: Promise<unknown>) => rejection(promise, UpstreamError);

/** A fake upstream answering every request with the status and this raw body of the content type. */
const answering = (status: number, type: string, body: string) =>
  startFakeServer((_req, res) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  });

let server: FakeServer | undefined;
let lines: string[];

beforeEach(() => {
  lines = [];
  setLogSink((_level, line) => lines.push(line));
});

afterEach(async () => {
  setLogSink(undefined);
  await server?.close();
  server = undefined;
});

function client(options: Partial<HttpClientOptions> = {}) {
  return new TestClient({ baseUrl: server!.url, timeoutMs: 2000, readRetries: 2, retryBaseDelayMs: 5, ...options });
}

describe("retries", () => {
  it("retries a GET on 503 and then succeeds", async () => {
    let calls = 0;
    server = await startFakeServer((_req, res) =>
      ++calls < 3 ? sendJson(res, 503, { message: "busy" }) : sendJson(res, 200, { ok: true }),
    );
    const { data } = await client().call(get);
    expect(data.ok).toBe(true);
    expect(server.count("/thing")).toBe(3);
  });

  it("gives up after the configured retries with an unavailable error", async () => {
    server = await startFakeServer((_req, res) => sendJson(res, 502, {}));
    const error = await failure(client({ readRetries: 2 }).call(get));
    expect(error.kind).toBe("unavailable");
    expect(error.status).toBe(502);
    expect(server.count("/thing")).toBe(3);
  });

  it("never retries a POST, even on 503", async () => {
    server = await startFakeServer((_req, res) => sendJson(res, 503, {}));
    const error = await failure(client({ readRetries: 5 }).call(post));
    expect(error.kind).toBe("unavailable");
    expect(server.count("/thing")).toBe(1);
  });

  it("does not retry a GET on a 4xx", async () => {
    server = await startFakeServer((_req, res) => sendJson(res, 404, { error: { code: "E_NOT_FOUND", message: "Not found" } }));
    const error = await failure(client().call(get));
    expect(error.kind).toBe("not_found");
    expect(error.code).toBe("E_NOT_FOUND");
    expect(server.count("/thing")).toBe(1);
  });

  it("waits longer between later retries (exponential backoff)", async () => {
    const times: number[] = [];
    server = await startFakeServer((_req, res) => {
      times.push(performance.now());
      sendJson(res, 503, {});
    });
    await failure(client({ readRetries: 3, retryBaseDelayMs: 40 }).call(get));
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    // Equal jitter: the n-th wait is in [base·2^(n-1)/2, base·2^(n-1)].
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
  });
});

describe("timeouts and network errors", () => {
  it("turns a hung upstream into a timeout error within about the timeout", async () => {
    server = await startFakeServer(() => {
      /* never answers */
    });
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 200, readRetries: 0 }).call(get));
    const elapsed = performance.now() - started;
    expect(error.kind).toBe("timeout");
    expect(error.status).toBeNull();
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1000);
  });

  it("spends one total deadline across a read's attempts: a hang is reported once, not once per attempt", async () => {
    let attempts = 0;
    server = await startFakeServer(() => {
      attempts += 1; // never answers
    });
    // Each attempt alone could wait 5 s, and two retries are allowed; the deadline (300 ms) is what ends the read.
    const error = await failure(client({ timeoutMs: 5000, readRetries: 2, readDeadlineMs: 300 }).call(get));
    expect(error.kind).toBe("timeout");
    expect(attempts).toBe(1);
  });

  it("retries a GET after a timeout", async () => {
    let calls = 0;
    server = await startFakeServer((_req, res) => {
      if (++calls > 1) sendJson(res, 200, { ok: true });
    });
    const { data } = await client({ timeoutMs: 150, readRetries: 1 }).call(get);
    expect(data.ok).toBe(true);
    expect(calls).toBe(2);
  });

  it("times out a body that stalls after the headers", async () => {
    server = await startFakeServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"ok":');
    });
    const error = await failure(client({ timeoutMs: 200, readRetries: 0 }).call(get));
    expect(error.kind).toBe("timeout");
  });

  it("reports a refused connection as unavailable", async () => {
    server = await startFakeServer(() => undefined);
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await failure(new TestClient({ baseUrl: url, readRetries: 1, retryBaseDelayMs: 1 }).call(get));
    expect(error.kind).toBe("unavailable");
    expect(error.status).toBeNull();
    expect(error.message).toContain("ECONNREFUSED");
  });
});

describe("response bodies", () => {
  it("treats unparsable JSON on a 200 as malformed (not retried)", async () => {
    server = await answering(200, "application/json", '{"ok": tr');
    const error = await failure(client().call(get));
    expect(error.kind).toBe("malformed");
    expect(error.status).toBe(200);
    expect(server.count("/thing")).toBe(1);
  });

  it("treats a 200 that does not match the schema as malformed, naming the paths but not the values", async () => {
    server = await startFakeServer((_req, res) => sendJson(res, 200, { ok: "529.982.247-25" }));
    const error = await failure(client().call(get));
    expect(error.kind).toBe("malformed");
    expect(error.fields).toEqual(["ok"]);
    expect(error.message).not.toContain("529");
  });

  it("hands an empty body to the schema as undefined when the body is optional", async () => {
    server = await startFakeServer((_req, res) => {
      res.writeHead(200);
      res.end();
    });
    const { data } = await client().call({ ...post, schema: z.unknown(), bodyOptional: true });
    expect(data).toBeUndefined();
  });

  it("reads {error: {code, message, details}} bodies", async () => {
    server = await startFakeServer((_req, res) =>
      sendJson(res, 400, {
        error: {
          code: "E_VALIDATION_FAILURE",
          message: "Unknown parameter",
          details: [{ field: "foo", message: "unknown" }, "bar", { path: ["document", "number"] }],
        },
      }),
    );
    const error = await failure(client().call(get));
    expect(error.kind).toBe("validation");
    expect(error.code).toBe("E_VALIDATION_FAILURE");
    expect(error.fields).toEqual(["foo", "bar", "document.number"]);
    expect(error.upstreamMessage).toBe("Unknown parameter");
  });

  it("reads {message, errors: {...}} bodies", async () => {
    server = await startFakeServer((_req, res) =>
      sendJson(res, 422, { message: "The given data was invalid.", errors: { domain: ["required"], label: ["required"] } }),
    );
    const error = await failure(client().call(post));
    expect(error.kind).toBe("validation");
    expect(error.fields).toEqual(["domain", "label"]);
  });

  it("tolerates an HTML error body", async () => {
    server = await answering(400, "text/html", "<html><body>Bad Request</body></html>");
    const error = await failure(client().call(get));
    expect(error.kind).toBe("validation");
    expect(error.fields).toBeUndefined();
    expect(error.code).toBeUndefined();
  });

  it("maps 403 on an allow-listed route to ip_not_allowed, unless the body says permission", async () => {
    let permission = false;
    server = await startFakeServer((_req, res) => {
      if (permission) sendJson(res, 403, { error: { code: "E_PERMISSION_DENIED", message: "missing permission" } });
      else {
        res.writeHead(403, { "content-type": "text/plain" });
        res.end("Forbidden");
      }
    });
    const ip = await failure(client().call({ ...get, forbiddenMeansIpNotAllowed: true }));
    expect(ip).toBeInstanceOf(UpstreamForbiddenError);
    expect((ip as UpstreamForbiddenError).reason).toBe("ip_not_allowed");
    permission = true;
    const denied = await failure(client().call({ ...get, forbiddenMeansIpNotAllowed: true }));
    expect((denied as UpstreamForbiddenError).reason).toBe("permission");
    const other = await failure(client().call({ ...post }));
    expect((other as UpstreamForbiddenError).reason).toBe("permission");
  });

  it("maps 401, 429 (with Retry-After) and other 4xx", async () => {
    let status = 401;
    server = await startFakeServer((_req, res) => sendJson(res, status, { message: "x" }, { "retry-after": "7" }));
    expect((await failure(client().call(get))).kind).toBe("unauthorized");
    status = 429;
    const limited = await failure(client().call(get));
    expect(limited.kind).toBe("rate_limited");
    expect((limited as UpstreamRateLimitedError).retryAfterSeconds).toBe(7);
    status = 415;
    expect((await failure(client().call(post))).kind).toBe("rejected");
  });

  it("does not follow redirects", async () => {
    server = await startFakeServer((req, res) => {
      if (req.path === "/thing") {
        res.writeHead(302, { location: "/elsewhere" });
        res.end();
      } else sendJson(res, 200, { ok: true });
    });
    const error = await failure(client().call(get));
    expect(error.kind).toBe("rejected");
    expect(server.count("/elsewhere")).toBe(0);
  });

  it("never puts a query string on a request without parameters", async () => {
    server = await startFakeServer((_req, res) => sendJson(res, 200, { ok: true }));
    await client().call({ ...get, query: { a: undefined } });
    expect([...server.requests[0]!.query.keys()]).toEqual([]);
  });
});

describe("parseErrorBody", () => {
  it("never throws, whatever the body", () => {
    for (const body of ["", "null", "[]", "42", '"text"', "{", "<html/>", '{"error": "boom"}', '{"errors": [1, null, {}]}']) {
      expect(() => parseErrorBody(body)).not.toThrow();
    }
    expect(parseErrorBody('{"error": "boom"}').message).toBe("boom");
  });

  it("masks digit runs (CPF, phone) and credentials in the upstream's message", () => {
    const parsed = parseErrorBody(JSON.stringify({ message: "CPF 529.982.247-25 invalid for https://x/y?token=abc&cpf=1" }));
    expect(parsed.message).not.toContain("529");
    expect(parsed.message).not.toContain("abc");
  });

  it("reads field names out of detail strings", () => {
    expect(
      parseErrorBody(JSON.stringify({ error: { details: ["Unknown query parameter 'foo'", "unknown parameter: bar"] } })).fields,
    ).toEqual(["foo", "bar"]);
  });
});

describe("redaction", () => {
  const apiKey = "sbx_secret_api_key_123";
  const signedUrl = "http://files.example/files/abc?expires=1700000000&signature=deadbeefcafe";

  it("keeps secrets, query values and bodies out of error messages and log lines", async () => {
    server = await startFakeServer((req, res) => {
      if (req.path === "/files") sendJson(res, 200, { url: signedUrl, ok: "not-a-boolean" });
      else sendJson(res, 400, { message: `bad key ${apiKey}`, errors: { token: ["tok-value-secret"] } });
    });
    const c = new TestClient({ baseUrl: server.url, retryBaseDelayMs: 1 }, [apiKey]);
    const rejected = await failure(
      c.call({ ...get, headers: { "X-API-Key": apiKey }, query: { token: "tok-value-secret", cpf: "52998224725" } }),
    );
    const malformed = await failure(c.call({ ...get, path: "/files", route: "/files" }));
    const everything = [rejected.message, rejected.upstreamMessage ?? "", malformed.message, ...lines].join("\n");
    for (const secret of [apiKey, "tok-value-secret", "52998224725", signedUrl, "deadbeefcafe"]) {
      expect(everything).not.toContain(secret);
    }
    // The log line has the route template, method, status and duration, not the URL.
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.route === "/thing");
    expect(logged).toMatchObject({ event: "upstream_call", upstream: "core", method: "GET", route: "/thing", status: 400 });
    expect(typeof logged?.durationMs).toBe("number");
  });

  it("obscures signed URL parameters, bearer tokens, JWTs, credential keys and registered secrets", () => {
    registerSecrets("sandbox-partner-password");
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln";
    const text = redactText(`${signedUrl} Authorization: Bearer abc.def ${jwt} pw=sandbox-partner-password`);
    expect(text).not.toMatch(/deadbeefcafe|1700000000|abc\.def|eyJ|sandbox-partner-password/);
    expect(redact({ headers: { Authorization: "Bearer x", "X-API-Key": "k" }, password: "p", nested: [{ token: "t" }] })).toEqual({
      headers: { Authorization: "[redacted]", "X-API-Key": "[redacted]" },
      password: "[redacted]",
      nested: [{ token: "[redacted]" }],
    });
  });
});
