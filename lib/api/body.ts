import "server-only";

import { NextRequest } from "next/server";

import { AppError } from "@/lib/shared/errors";

/*
 * The one way a request body is read. The cap is enforced while the stream is read: a declared
 * Content-Length over the cap is refused before a byte is read, and an undeclared (chunked) body is
 * refused as soon as the running total passes the cap, so a 200 MB body never sits in memory. Large bodies share
 * one process-wide budget of bytes being read at once (BodyBudget).
 */

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Refuses (415) a body that does not say it is JSON: a `text/plain` form post is not read as JSON. */
export function assertJsonContentType(request: Request): void {
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? "")) throw new AppError("unsupported_media_type");
}

/**
 * Bodies larger than this are read within the process-wide budget (BODY_BUDGET_BYTES); smaller ones (every JSON
 * form, next-auth's posts) are not counted. The default cap itself: only a route that raises its cap
 * (`maxBodyBytes`) takes bodies that count.
 * @alias
 */
export const BODY_BUDGET_THRESHOLD_BYTES = DEFAULT_MAX_BODY_BYTES;

/**
 * The bytes that the large bodies (above BODY_BUDGET_THRESHOLD_BYTES) of every request of this process may hold
 * together while they are read. Past it a request is refused (503 `server_busy`) rather than buffered: a crowd of
 * slow large uploads cannot add up to an out-of-memory crash, whatever each route's own cap.
 */
export const BODY_BUDGET_BYTES = 16 * 1024 * 1024;

/** A count of bytes being buffered at once, shared by every request of the process. */
export class BodyBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  /** Bytes held now. */
  get inUse(): number {
    return this.used;
  }

  /** Takes `bytes` when they fit and answers true; else takes nothing and answers false. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}

const processSlot = globalThis as typeof globalThis & { __kycBodyBudget?: BodyBudget };

/** The process's budget, one for every route (the route kit's and next-auth's). */
export function bodyBudget(): BodyBudget {
  processSlot.__kycBodyBudget ??= new BodyBudget(BODY_BUDGET_BYTES);
  return processSlot.__kycBodyBudget;
}

/**
 * The body's bytes, at most `maxBytes` (413 otherwise, before reading when a Content-Length says so, else as soon
 * as the running total passes it). A body above BODY_BUDGET_THRESHOLD_BYTES holds its bytes in `budget` while it is
 * read (503 `server_busy` when they do not fit) and gives them back however the read ends.
 */
export async function readBytes(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES, budget = bodyBudget()): Promise<Uint8Array> {
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const declaredHeader = request.headers.get("content-length");
  const declared = declaredHeader !== null && /^\d+$/.test(declaredHeader.trim()) ? Number(declaredHeader) : undefined;
  if (declared !== undefined && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  let held = 0;
  // Holds `bytes` in the budget in all (what is held already counts).
  const hold = (bytes: number) => {
    if (bytes <= BODY_BUDGET_THRESHOLD_BYTES || bytes <= held) return;
    if (!budget.take(bytes - held)) {
      throw new AppError("server_busy", "The server is receiving too much data at once. Try again in a moment.", { retryable: true });
    }
    held = bytes;
  };
  const reader = request.body.getReader();
  try {
    // A declared large body is refused before its first byte is read when the budget cannot hold it.
    if (declared !== undefined) hold(declared);
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      // Stop reading: the rest of the body is never buffered.
      if (total > maxBytes) throw tooLarge();
      hold(total);
      chunks.push(value);
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    budget.give(held);
  }
}

/** The body as text, at most `maxBytes` bytes of UTF-8; 413 otherwise, 400 when it is not UTF-8. */
export async function readText(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES, budget = bodyBudget()): Promise<string> {
  const bytes = await readBytes(request, maxBytes, budget);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", "The request body is not valid UTF-8.");
  }
}

/**
 * The same request with its body read through the cap and the budget (readBytes) and held in memory: for a handler
 * that reads the body itself (next-auth's), which would otherwise buffer whatever arrives. Bodiless requests pass as
 * they are.
 */
export async function boundedRequest(request: Request, maxBytes: number): Promise<NextRequest> {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return new NextRequest(request);
  const bytes = await readBytes(request, maxBytes);
  const headers = new Headers(request.headers);
  headers.set("content-length", String(bytes.byteLength));
  headers.delete("transfer-encoding");
  return new NextRequest(request.url, { method: request.method, headers, body: bytes as Uint8Array<ArrayBuffer> });
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
}
