/*
 * Request dispatch: request log, fault injection, routing, errors in the shape of each API family.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

import type { FaultRule } from "./config";
import { controlRoutes } from "./control";
import { coreError, coreRoutes } from "./core";
import { serveFile } from "./files";
import { html, HttpError, json, readBody, Router, text, type Ctx, type Reply } from "./http";
import { partnersRoutes, withCors } from "./partners";
import { partnersError } from "./partners-auth";
import type { SandboxState } from "./state";
import { widgetRoutes } from "./widget";

type Family = "core" | "partners" | "files" | "widget" | "other";

function familyOf(path: string): Family {
  const first = path.split("/")[1] ?? "";
  if (first === "core" || first === "partners" || first === "files" || first === "widget") return first;
  return "other";
}

const CORE_CODES: Record<number, string> = {
  400: "E_VALIDATION_FAILURE",
  401: "E_UNAUTHORIZED",
  403: "E_PERMISSION_DENIED",
  404: "E_NOT_FOUND",
  405: "E_METHOD_NOT_ALLOWED",
  413: "E_PAYLOAD_TOO_LARGE",
  415: "E_UNSUPPORTED_MEDIA_TYPE",
  429: "E_TOO_MANY_REQUESTS",
  500: "E_INTERNAL",
  502: "E_BAD_GATEWAY",
  503: "E_SERVICE_UNAVAILABLE",
  504: "E_GATEWAY_TIMEOUT",
};

export function errorReply(path: string, status: number, message: string, headers: Record<string, string> = {}): Reply {
  let reply: Reply;
  switch (familyOf(path)) {
    case "core":
      reply = coreError(status, CORE_CODES[status] ?? "E_SANDBOX_FAULT", message);
      break;
    case "files":
      reply = text(status, `${message}\n`);
      break;
    case "widget":
      reply = html(status, `<!doctype html><title>${status}</title><p>${message}</p>`);
      break;
    case "partners":
      reply = partnersError(status, message);
      break;
    default:
      reply = json(status, { message });
  }
  return { ...reply, headers: { ...reply.headers, ...headers } };
}

export interface Dispatcher {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Drops held ("timeout") requests and pending latency waits: used on shutdown. */
  abortAll(): void;
}

export function createDispatcher(state: SandboxState): Dispatcher {
  const router = new Router();
  coreRoutes(state, router);
  partnersRoutes(state, router);
  router.add("GET", "/files/:file_public_id", (ctx) => serveFile(state, ctx));
  widgetRoutes(state, router);
  controlRoutes(state, router);

  const held = new Set<ServerResponse>();
  const waits = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waits.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waits.add(done);
    });

  async function route(ctx: Ctx): Promise<Reply> {
    const match = router.match(ctx.method, ctx.path);
    if (match.kind === "found") {
      ctx.params = match.params;
      return match.handler(ctx);
    }
    if (match.kind === "method") {
      // CORS preflight of a browser calling the partners API (the federal revenue lookup is browser-facing).
      if (ctx.method === "OPTIONS" && ctx.path.startsWith("/partners/")) {
        return withCors(ctx, {
          status: 204,
          headers: {
            "access-control-allow-methods": [...match.allow, "OPTIONS"].join(", "),
            "access-control-allow-headers": ctx.header("access-control-request-headers") ?? "authorization, content-type",
            "access-control-max-age": "600",
          },
          body: Buffer.alloc(0),
        });
      }
      return errorReply(ctx.path, 405, "Method Not Allowed.", { allow: match.allow.join(", ") });
    }
    return errorReply(ctx.path, 404, "Not Found.");
  }

  function send(res: ServerResponse, reply: Reply, head: boolean): void {
    if (res.destroyed || res.headersSent) return;
    // Every answer names itself, so a caller can quote it to support (X-Request-Id, as the provider's
    // pocs/next-checkout example logs it).
    const requestId = `req_${randomUUID()}`;
    res.writeHead(reply.status, { "x-request-id": requestId, ...reply.headers, "content-length": String(reply.body.length) });
    res.end(head ? undefined : reply.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? "/";
    const mark = url.indexOf("?");
    const path = mark < 0 ? url : url.slice(0, mark);
    const rawQuery = mark < 0 ? null : url.slice(mark + 1);
    const query = new URLSearchParams(rawQuery ?? "");
    const method = (req.method ?? "GET").toUpperCase();
    const control = path === "/sandbox" || path.startsWith("/sandbox/");

    if (!control) {
      state.log.add({ method, path, query: [...new Set(query.keys())], at: new Date(state.clock.now()).toISOString() });
    }

    let body: Promise<Buffer> | null = null;
    const ctx: Ctx = {
      req,
      method,
      path,
      rawQuery,
      query,
      params: {},
      ip: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
      header: (name) => {
        const value = req.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(", ") : value;
      },
      body: () => (body ??= readBody(req)),
    };

    const rule: FaultRule | null = control ? null : state.faults.match(path);
    if (rule) {
      if (rule.latency_ms > 0) await sleep(rule.latency_ms);
      if (Math.random() < rule.timeout_rate) {
        // Hold the request: no answer until the client gives up (or the sandbox shuts down).
        held.add(res);
        res.on("close", () => held.delete(res));
        return;
      }
      if (Math.random() < rule.error_rate) {
        send(res, errorReply(path, rule.status, "Injected fault (sandbox)."), method === "HEAD");
        return;
      }
    }

    let reply: Reply;
    try {
      reply = await route(ctx);
    } catch (error) {
      if (error instanceof HttpError) {
        reply = errorReply(path, error.status, error.message);
      } else {
        console.error(`sandbox: internal error on ${method} ${path}: ${error instanceof Error ? error.message : String(error)}`);
        reply = errorReply(path, 500, "Internal sandbox error.");
      }
    }

    if (rule && rule.malformed_rate > 0 && Math.random() < rule.malformed_rate) {
      const cut = Math.max(1, Math.floor(reply.body.length / 2));
      reply = { ...reply, body: reply.body.length === 0 ? Buffer.from("{") : reply.body.subarray(0, cut) };
    }
    send(res, reply, method === "HEAD");
  }

  return {
    handle,
    abortAll() {
      for (const res of held) res.destroy();
      held.clear();
      for (const done of [...waits]) done();
    },
  };
}
