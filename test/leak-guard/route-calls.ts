import "server-only";

import { readdirSync } from "node:fs";
import path from "node:path";

import { GET as media } from "@/app/api/verifications/[publicId]/media/route";
import type { VerificationMediaResponse } from "@/lib/verifications/types";
import { INPUTS, METHODS, type Call, type Ids, type Method } from "@/test/leak-guard/masking-inputs";
import type { PartnersHarness } from "@/test/partners-ops";

// Calling every handler under app/api as a member would, for the masking guard (test/leak-guard/masking.test.ts).

export const ORIGIN = "http://localhost:3000";

type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

/** Every handler under app/api: `METHOD /api/path` with its module's export. */
function routeTable(): Array<{ key: string; method: Method; path: string; file: string }> {
  const root = path.join(process.cwd(), "app", "api");
  const files = (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join("/"))
    .filter((file) => file === "route.ts" || file.endsWith("/route.ts"))
    .sort();
  return files.flatMap((file) => {
    const routePath = `/api/${file.replace(/\/?route\.ts$/, "")}`.replace(/\/$/, "");
    return METHODS.map((method) => ({ key: `${method} ${routePath}`, method, path: routePath, file: `app/api/${file}` }));
  });
}

export type Loaded = { key: string; method: Method; path: string; handler: Handler };

export async function loadRoutes(): Promise<Loaded[]> {
  const loaded: Loaded[] = [];
  for (const route of routeTable()) {
    const exported = (await import(/* @vite-ignore */ path.join(process.cwd(), route.file))) as Partial<Record<Method, Handler>>;
    const handler = exported[route.method];
    if (handler) loaded.push({ key: route.key, method: route.method, path: route.path, handler });
  }
  return loaded;
}

/** How the guard calls a route: its inputs, generically (a GET without dynamic segments), or not (the reason), or unknown. */
export function callsOf(route: Loaded, ids: Ids): Call[] | { skip: string } | null {
  const inputs = INPUTS[route.key];
  if (inputs) return "skip" in inputs ? inputs : inputs.calls(ids);
  if (route.method === "GET" && !route.path.includes("[")) return [{}];
  return null;
}

/** A bounded part of a stream's body: what arrives within `ms` or the first 64 KiB, then the stream is closed. */
async function boundedText(response: Response, abort: AbortController, ms = 1500): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (text.length < 65_536) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    const next = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), left))]);
    if (next === null || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  abort.abort();
  await reader.cancel().catch(() => undefined);
  return text;
}

export interface Answer {
  label: string;
  key: string;
  status: number;
  text: string;
  mayFail?: number;
}

/** A media token issued to this member (tokens are bound to who asked), or a placeholder the image route refuses. */
async function mediaTokenOf(h: PartnersHarness, cookie: string, publicId: string): Promise<string> {
  const response = await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie }), {
    params: Promise.resolve({ publicId }),
  });
  if (response.status !== 200) return "none";
  const found = ((await response.json()) as VerificationMediaResponse).items.find((item) => item.available);
  return found?.available ? decodeURIComponent(found.src.replace(/^\/api\/media\//, "")) : "none";
}

/** Every answer a member gets from every route the guard calls, as text (JSON, CSV, SSE, bytes). */
export async function everyAnswer(
  h: PartnersHarness,
  routes: Loaded[],
  cookie: string,
  shared: Omit<Ids, "mediaToken">,
): Promise<Answer[]> {
  const ids: Ids = { ...shared, mediaToken: await mediaTokenOf(h, cookie, shared.publicId) };
  const answers: Answer[] = [];
  for (const route of routes) {
    const calls = callsOf(route, ids);
    if (calls === null || !Array.isArray(calls)) continue;
    for (const call of calls) {
      const concrete = Object.entries(call.params ?? {}).reduce(
        (at, [name, value]) => at.replace(new RegExp(`\\[(\\.\\.\\.)?${name}\\]`), Array.isArray(value) ? value.join("/") : value),
        route.path,
      );
      const url = `${ORIGIN}${concrete}${call.query ? `?${call.query}` : ""}`;
      const abort = new AbortController();
      const built = h.request(url, { method: route.method, cookie, body: call.body, headers: call.headers });
      const request = call.stream ? new Request(built, { signal: abort.signal }) : built;
      const response = await route.handler(request, { params: Promise.resolve(call.params ?? {}) as Promise<never> });
      const text = call.stream ? await boundedText(response, abort) : await response.text();
      answers.push({
        label: `${route.method} ${url.slice(ORIGIN.length)}`,
        key: route.key,
        status: response.status,
        text,
        mayFail: call.mayFail,
      });
    }
  }
  return answers;
}
