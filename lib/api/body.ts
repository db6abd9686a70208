import "server-only";

import { AppError } from "@/lib/shared/errors";

/*
 * The one way a request body is read. The cap is enforced while the stream is read: a declared
 * Content-Length over the cap is refused before a byte is read, and an undeclared (chunked) body is
 * refused as soon as the running total passes the cap, so a 200 MB body never sits in memory.
 */

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/** Refuses (415) a body that does not say it is JSON: a `text/plain` form post is not read as JSON. */
export function assertJsonContentType(request: Request): void {
  if (!JSON_TYPE.test(request.headers.get("content-type") ?? "")) throw new AppError("unsupported_media_type");
}

/** The body as text, at most `maxBytes` bytes of UTF-8; 413 otherwise, 400 when it is not UTF-8. */
export async function readText(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Stop reading: the rest of the body is never buffered.
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", "The request body is not valid UTF-8.");
  }
}

/** The JSON body: `application/json` required (415), capped (413), parsed (400 when it is not JSON). */
export async function readJson(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  assertJsonContentType(request);
  return parseJson(await readText(request, maxBytes));
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
}
