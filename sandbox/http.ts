/*
 * A tiny HTTP toolkit on node:http: replies as values (so faults can delay, drop or truncate them), a
 * path router with `:param` segments that tells 404 from 405, body reading with a size limit, and a small
 * multipart/form-data parser.
 */
import type { IncomingMessage } from "node:http";

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Ctx {
  req: IncomingMessage;
  method: string;
  /** Path without the query string, as received (not decoded). */
  path: string;
  /** Everything after the first `?`, or null when the URL has no `?` at all. */
  rawQuery: string | null;
  query: URLSearchParams;
  params: Record<string, string>;
  /** Caller's IPv4 address (IPv4-mapped IPv6 unwrapped). */
  ip: string;
  header(name: string): string | undefined;
  body(): Promise<Buffer>;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const MAX_BODY_BYTES = 1024 * 1024;

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers }, body: Buffer.from(body) };
}

export function html(status: number, body: string): Reply {
  return { status, headers: { "content-type": "text/html; charset=utf-8" }, body: Buffer.from(body) };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new HttpError(413, "Request body too large."));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (error) => {
      if (!failed) reject(error);
    });
  });
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export type Match =
  { kind: "found"; handler: Handler; params: Record<string, string> } | { kind: "method"; allow: string[] } | { kind: "none" };

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.routes.push({ method, segments: pattern.split("/").slice(1), handler });
    return this;
  }

  match(method: string, path: string): Match {
    const parts = path.split("/").slice(1);
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method || (route.method === "GET" && method === "HEAD"))
        return { kind: "found", handler: route.handler, params };
      allow.add(route.method);
    }
    return allow.size > 0 ? { kind: "method", allow: [...allow] } : { kind: "none" };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    const actual = parts[i]!;
    if (expected.startsWith(":")) {
      if (actual === "") return null;
      let value: string;
      try {
        value = decodeURIComponent(actual);
      } catch {
        return null;
      }
      params[expected.slice(1)] = value;
    } else if (expected !== actual) {
      return null;
    }
  }
  return params;
}

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

function headerParam(contentType: string, name: string): string | null {
  const pattern = new RegExp(`;\\s*${name}=(?:"([^"]*)"|([^;\\s]*))`, "i");
  const match = pattern.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

export interface MultipartFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface Form {
  fields: Map<string, string>;
  files: Map<string, MultipartFile>;
}

/**
 * Parses a multipart/form-data body (RFC 7578). Returns null when the body is not well formed. A field
 * sent twice keeps its last value.
 */
export function parseMultipart(body: Buffer, contentType: string): Form | null {
  const boundary = headerParam(contentType, "boundary");
  if (!boundary || boundary.length > 70) return null;
  const delimiter = Buffer.from(`--${boundary}`);
  const form: Form = { fields: new Map(), files: new Map() };

  let position = body.indexOf(delimiter);
  if (position < 0) return null;
  for (;;) {
    position += delimiter.length;
    if (body.subarray(position, position + 2).toString() === "--") return form; // closing delimiter
    // Transport padding then CRLF after the delimiter.
    while (body[position] === 0x20 || body[position] === 0x09) position++;
    if (body.subarray(position, position + 2).toString() !== "\r\n") return null;
    position += 2;
    const headerEnd = body.indexOf("\r\n\r\n", position);
    if (headerEnd < 0) return null;
    const headers = new Map<string, string>();
    for (const line of body.subarray(position, headerEnd).toString("utf8").split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0) return null;
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = body.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), headerEnd + 4);
    if (next < 0) return null;
    const content = body.subarray(headerEnd + 4, next);
    const disposition = headers.get("content-disposition") ?? "";
    if (!/^form-data\b/i.test(disposition)) return null;
    const name = headerParam(`x;${disposition.replace(/^form-data\s*;?/i, "")}`, "name");
    if (name === null) return null;
    const filename = headerParam(`x;${disposition.replace(/^form-data\s*;?/i, "")}`, "filename");
    if (filename !== null) {
      form.files.set(name, {
        filename,
        contentType: headers.get("content-type") ?? "application/octet-stream",
        data: Buffer.from(content),
      });
    } else {
      form.fields.set(name, content.toString("utf8"));
    }
    position = next + 2;
  }
}

/** IPv4 CIDR membership. Non-IPv4 addresses never match. */
export function ipInCidr(ip: string, cidr: string): boolean {
  const [range, bitsText] = cidr.split("/");
  const bits = Number(bitsText ?? 32);
  const toInt = (address: string): number | null => {
    const parts = address.split(".");
    if (parts.length !== 4) return null;
    let value = 0;
    for (const part of parts) {
      if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
      value = value * 256 + Number(part);
    }
    return value;
  };
  const address = toInt(ip);
  const base = toInt(range ?? "");
  if (address === null || base === null || !(bits >= 0 && bits <= 32)) return false;
  const size = 2 ** (32 - bits);
  return Math.floor(address / size) === Math.floor(base / size);
}
