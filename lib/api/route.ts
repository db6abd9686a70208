import "server-only";

import { NextResponse } from "next/server";
import { z } from "zod";

import { requestContext, type RequestContext } from "@/lib/audit-trail/server/context";
import type { Permission } from "@/lib/auth/permissions";
import {
  assertCredentialChange,
  assertStepUp,
  hasPermission,
  requireUser,
  type Access,
  type StaffSession,
} from "@/lib/auth/server/require-role";
import type { SessionStage } from "@/lib/auth/types";
import { config } from "@/lib/config";
import { memberConnection, narrowTo, type ConnectionGrant } from "@/lib/connections/server/access";
import { takeConnectionParam, withConnection } from "@/lib/connections/server/bind";
import type { Connection } from "@/lib/connections/server/store";
import { getDb, type Database } from "@/lib/db/client";
import { metrics, secondsSince } from "@/lib/metrics/registry";
import { trackRequest } from "@/lib/runtime/lifecycle";
import { AppError } from "@/lib/shared/errors";
import { activeTraceparent, inSpan, SpanKind } from "@/lib/tracing/tracer";
import { withUpstreamSource } from "@/lib/upstream/call-count";

import { assertJsonContentType, DEFAULT_MAX_BODY_BYTES, parseJson, readText } from "./body";
import { toErrorResponse } from "./errors";

/*
 * The route kit: every handler under app/api (next-auth's own excepted, which reads its body through the same cap and
 * budget: lib/api/body.ts boundedRequest) is `route(options, handler)`.
 * In this order, before the handler runs:
 *
 *   1. same-origin check for every non-GET: an Origin that is not this site's is refused, and so is a
 *      missing Origin unless the browser says `Sec-Fetch-Site: same-origin` (403 `cross_origin`). A page
 *      on another site (or another port of this host) cannot post a form with the staff's cookie. A GET with
 *      side effects (`sideEffects`) is checked too: SameSite=Lax sends the cookie with a cross-site link or image.
 *   2. session and the permission the route declares (401/403), unless the route is public;
 *   3. params and query parsed with their zod schemas (400 naming the field); a query key given more than once
 *      is refused by name unless the route lists it in `repeatable` (`queryRecord`);
 *   4. the body: `application/json` required (415), capped while the stream is read (413), parsed
 *      (400), then its schema; or the raw text (the webhook receiver verifies a signature over it);
 *   5. for a sensitive action (`stepUp`), a second factor verified within STEP_UP_SECONDS (401
 *      `step_up_required`);
 *   6. the database opened (`db`, unless the route says `database: false`): the one way a handler gets it.
 *
 * Whatever is thrown is mapped once by `toErrorResponse`; every answer carries `Cache-Control: no-store`. Every
 * request is counted while it is answered (a draining instance waits for it: lib/runtime/lifecycle.ts) and observed
 * in `kyc_http_request_duration_seconds` under its route as the file names it, never the path as requested.
 */

/** A permission (lib/auth/permissions.ts), `signed_in` (any live session), or `public` (no session). */
export type RouteAccess = Access | "public";

export interface RouteOptions<R extends RouteAccess, P, Q, B, D extends boolean = true> {
  /** What the caller must hold; every route names it (docs/permissions.md). */
  permission: R;
  /**
   * Further permissions the caller must hold as well, checked with `permission` before anything is parsed: a
   * route acting across two features (a lookup of a verification's person) declares both, never one in its body.
   */
  alsoNeeds?: readonly Permission[];
  /**
   * Runs when a signed-in caller lacks the permission, before the 403: a route whose refusals belong on the
   * audit trail records them here (GET /api/audit).
   */
  denied?: (input: { request: Request; context: RequestContext }) => Promise<void>;
  // Any zod schema (a rule the browser also runs is a plain parser, wrapped by
  // lib/shared/from-parser.ts): a refusal is always a ZodError for the error mapper.
  params?: z.core.$ZodType<P>;
  query?: z.core.$ZodType<Q>;
  /** Query keys that may be given more than once (a list such as `status=a&status=b`): their values come as an array. */
  repeatable?: readonly string[];
  body?: z.core.$ZodType<B>;
  /** Body cap in bytes; default 16 KiB. */
  maxBodyBytes?: number;
  /** The handler gets the body as `raw` text (capped) instead of parsed JSON. */
  rawBody?: true;
  /** Skips the same-origin check. Only for the webhook receiver, which a signature authenticates. */
  crossSite?: "allow";
  /**
   * A GET that does more than a plain read: it spends a quota or hands out a file (an export, an image). The
   * SameSite=Lax cookie still comes with a link, an image or a frame of another site, so it must come from this
   * site like a write: `Sec-Fetch-Site: same-origin`, or `none` (the member typed the address or opened a
   * bookmark), or an Origin of this site; else 403 `cross_origin`. app/api/side-effects.test.ts checks which
   * routes say so.
   */
  sideEffects?: true;
  /** Stages of a sign-in in which this route may still be called (the password change, the enrolment…). */
  during?: readonly SessionStage[];
  /**
   * A sensitive action: a second factor verified within STEP_UP_SECONDS, else 401 `step_up_required`.
   * `credentials`: a change to the member's own factors or password (require-role.ts `assertCredentialChange`).
   */
  stepUp?: true | "credentials";
  /**
   * Always a background request (BACKGROUND_HEADER), whatever its headers: never the member's activity. For the
   * live stream, which an EventSource opens and cannot add a header to.
   */
  background?: true;
  /**
   * `false`: the kit does not open the database for this route and hands no `db`. Only the health route, whose
   * liveness answer must not wait for (or fail with) the database (its readiness probes it with a timeout), and
   * the bench's floor (app/api/bench/proxy), which does nothing but forward.
   */
  database?: D;
}

export interface RouteInput<R extends RouteAccess, P, Q, B, D extends boolean = true> {
  request: Request;
  user: R extends "public" ? null : StaffSession;
  /**
   * The process database, opened by the kit: the one way a handler gets it (a route file never imports
   * lib/db). The handler hands it to its feature's server functions.
   */
  db: D extends false ? undefined : Database;
  /**
   * The connection the request works under (the `connection` query parameter, else the default one), for a
   * signed-in route that opens the database; the handler runs speaking with its key (lib/connections).
   */
  connection: R extends "public" ? null : D extends false ? null : Connection;
  /**
   * The caller's connection grants as read for this request (null: every connection, nothing withheld; also for a
   * public route or one without the database), for what lists records of several connections (notifications).
   */
  grants: ConnectionGrant[] | null;
  context: RequestContext;
  params: P;
  query: Q;
  body: B;
  raw: string;
}

/** Next 16 passes the dynamic segments as a promise (an empty object where there are none). */
type NextContext = { params: Promise<unknown> };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A JSON answer that no browser, proxy or CDN keeps. */
export function json<T>(body: T, init: { status?: number; headers?: HeadersInit } = {}): NextResponse<T> {
  const headers = new Headers(init.headers);
  headers.set("Cache-Control", "no-store");
  return NextResponse.json(body, { status: init.status ?? 200, headers });
}

/**
 * A CSV file to save (an export): streamed, never kept by a cache, never sniffed as something else, saved
 * under `filename`. `headers` adds what the export announces (X-Total-Count…).
 */
export function csvFile(body: ReadableStream<Uint8Array>, filename: string, headers: Record<string, string> = {}): Response {
  return attachment(body, "text/csv; charset=utf-8", filename, headers);
}

/** Any file to save (a CSV, a PDF report): never cached, never sniffed as something else, saved under `filename`. */
export function attachment(
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> | string,
  contentType: string,
  filename: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, {
    headers: {
      ...headers,
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A file name's time stamp for an export made now: UTC, `YYYYMMDD-HHMMSS`. */
export function fileStamp(now: Date = new Date()): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
}

/** This site's origins: the one the request was addressed to and the configured public address. */
function ownOrigins(request: Request): Set<string> {
  const origins = new Set([new URL(request.url).origin]);
  const publicUrl = config().publicUrl;
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  return origins;
}

/**
 * The query string as the record a route's query schema reads: each key once, as its text. A key given more than
 * once is refused naming it (400), unless `repeatable` lists it (its values then come as an array): with
 * `format=&format=csv` a check reading the first value and a parser reading the last would decide differently.
 */
export function queryRecord(request: Request, repeatable: readonly string[] = []): Record<string, string | string[]> {
  const params = new URL(request.url).searchParams;
  const entries: [string, string | string[]][] = [];
  const issues: z.core.$ZodIssue[] = [];
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length === 1) entries.push([key, values[0]!]);
    else if (repeatable.includes(key)) entries.push([key, values]);
    else issues.push({ code: "custom", path: [key], message: "must be given once", input: values });
  }
  if (issues.length) throw new z.ZodError(issues);
  return Object.fromEntries(entries);
}

/**
 * Refuses a state-changing request (or a GET with side effects) that a page of another origin could have sent. A
 * GET may also say `Sec-Fetch-Site: none`: the member opened the address themselves.
 */
export function assertSameOrigin(request: Request, { sideEffects = false }: { sideEffects?: boolean } = {}): void {
  const safe = SAFE_METHODS.has(request.method.toUpperCase());
  if (safe && !sideEffects) return;
  const origin = request.headers.get("origin");
  if (origin !== null) {
    // "null" (a sandboxed frame, a redirect across origins) is never this site.
    if (!ownOrigins(request).has(origin)) throw new AppError("cross_origin");
    return;
  }
  const site = request.headers.get("sec-fetch-site");
  if (site === "same-origin" || (safe && site === "none")) return;
  throw new AppError("cross_origin");
}

/** The body as text when there is one (JSON required then), else null. */
async function bodyText(request: Request, maxBytes: number): Promise<string | null> {
  if (!carriesBody(request)) return null;
  if (request.headers.get("content-type")) assertJsonContentType(request);
  const text = await readText(request, maxBytes);
  if (text === "") return null;
  assertJsonContentType(request);
  return text;
}

/** What a route gets for a missing body: undefined when its schema allows it, else the refusal a missing JSON body earns. */
function absentBody(request: Request, schema: z.core.$ZodType<unknown>): undefined {
  if (z.safeParse(schema, undefined).success) return undefined;
  assertJsonContentType(request);
  throw new AppError("bad_request", "The request needs a JSON body.");
}

/** True when a write arrives with a body (declared, or streamed without a length). */
function carriesBody(request: Request): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return false;
  return request.headers.get("content-length") !== "0";
}

/**
 * The caller holding the route's permission, and the connection the request works under. A member's permissions are
 * their role's less what that connection withholds from them (lib/connections/server/access.ts), and a connection
 * they may not use is unknown to them (404); a refusal is handed to the route's `denied` first.
 */
async function authorise<R extends RouteAccess, P, Q, B, D extends boolean>(
  request: Request,
  options: RouteOptions<R, P, Q, B, D>,
  db: Database | undefined,
  connectionId: string | undefined,
): Promise<{ user: StaffSession | null; connection: Connection | null; grants: ConnectionGrant[] | null }> {
  const access: RouteAccess = options.permission;
  if (access === "public") return { user: null, connection: null, grants: null };
  const member = await requireUser(request, "signed_in", { during: options.during, background: options.background === true });
  // Read with the session (its cache spares the query): null for a route without the database, as before.
  const grants = db ? member.connectionGrants : null;
  const connection = db ? await memberConnection(db, connectionId, grants) : null;
  const user = connection ? narrowTo(member, grants, connection.id) : member;
  const holds = access === "signed_in" || hasPermission(user, access);
  if (holds && (options.alsoNeeds ?? []).every((permission) => hasPermission(user, permission))) return { user, connection, grants };
  await options.denied?.({ request, context: requestContext(user, request.headers) });
  throw new AppError("forbidden");
}

export function route<R extends RouteAccess, P = Record<string, never>, Q = Record<string, never>, B = undefined, D extends boolean = true>(
  options: RouteOptions<R, P, Q, B, D>,
  handler: (input: RouteInput<R, P, Q, B, D>) => Promise<Response>,
): (request: Request, next?: NextContext) => Promise<Response> {
  return async (request, next) => {
    const source = await sourceOf(request, next);
    return trackRequest(() => observed(source, () => withUpstreamSource(source, () => handle(request, next))));
  };
  async function handle(request: Request, next?: NextContext): Promise<Response> {
    let response: Response;
    try {
      if (options.crossSite !== "allow") assertSameOrigin(request, { sideEffects: options.sideEffects === true });
      const record = queryRecord(request, options.repeatable);
      const connectionId = takeConnectionParam(record);
      const db = (options.database === false ? undefined : await getDb()) as RouteInput<R, P, Q, B, D>["db"];
      const { user, connection, grants } = await authorise(request, options, db, connectionId);
      const params = options.params ? z.parse(options.params, (await next?.params) ?? {}) : ({} as P);
      const query = options.query ? z.parse(options.query, record) : ({} as Q);
      const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const raw = options.rawBody ? await readText(request, maxBytes) : "";
      // The body's text, or null when it has none. A write that takes no body still refuses one it cannot be
      // sent (the same content type and cap as any other write), so no route is the one a cross-site text/plain
      // form or a huge upload can reach. An empty stream is no body: browsers send one with a bodiless DELETE.
      const text = options.rawBody ? null : await bodyText(request, maxBytes);
      // A schema that accepts undefined makes the body optional: an empty request parses as undefined.
      const body = options.body
        ? z.parse(options.body, text === null ? absentBody(request, options.body) : parseJson(text))
        : (undefined as B);
      // After the input is known good: the member fixes a field before being asked for the factor, and the
      // browser's step-up dialog then retries the very same request (lib/shared/api-client/api-request.ts).
      if (options.stepUp === "credentials" && user) assertCredentialChange(user);
      else if (options.stepUp && user) assertStepUp(user);
      const input: RouteInput<R, P, Q, B, D> = {
        request,
        user: user as RouteInput<R, P, Q, B, D>["user"],
        db,
        connection: connection as RouteInput<R, P, Q, B, D>["connection"],
        grants,
        context: requestContext(user, request.headers),
        params,
        query,
        body,
        raw,
      };
      response = await (connection ? withConnection(connection, () => handler(input)) : handler(input));
    } catch (error) {
      return toErrorResponse(error);
    }
    // Answers here may hold personal data or a key: never cached, whatever the handler forgot.
    if (!response.headers.has("cache-control")) setHeader(response, "Cache-Control", "no-store");
    return response;
  }
}

/**
 * The answer's time to its headers, by route template, method and status (lib/metrics/registry.ts), in a span named
 * after the route's template (lib/tracing/tracer.ts) whose `traceparent` the answer carries.
 */
async function observed(source: string, answer: () => Promise<Response>): Promise<Response> {
  const started = performance.now();
  const { httpRequests, httpInFlight } = metrics();
  const space = source.indexOf(" ");
  const [method, template] = [source.slice(0, space), source.slice(space + 1)];
  httpInFlight.inc();
  try {
    return await inSpan(
      source,
      { "http.request.method": method, "http.route": template },
      async (span) => {
        const response = await answer();
        span.setAttribute("http.response.status_code", response.status);
        httpRequests.observe({ method, route: template, status: String(response.status) }, secondsSince(started));
        const traceparent = activeTraceparent();
        if (traceparent) setHeader(response, "traceparent", traceparent);
        return response;
      },
      SpanKind.SERVER,
    );
  } finally {
    httpInFlight.dec();
  }
}

/** Sets a header unless the response's headers are immutable (a fetched Response passed through). */
function setHeader(response: Response, name: string, value: string): void {
  try {
    response.headers.set(name, value);
  } catch {
    // Immutable: it keeps its own.
  }
}

/**
 * The route as its file names it ("GET /api/verifications/[publicId]"): the source its upstream calls are counted
 * under (lib/upstream/call-count.ts). Each path segment equal to a dynamic segment's value is put back as its name,
 * so a verification's id never becomes part of a count's key.
 */
async function sourceOf(request: Request, next?: NextContext): Promise<string> {
  let params: Record<string, unknown> = {};
  try {
    const given = await next?.params;
    if (given && typeof given === "object") params = given as Record<string, unknown>;
  } catch {
    // Unreadable params are the handler's to refuse; the count keeps the literal path.
  }
  const names = new Map<string, string>();
  for (const [name, value] of Object.entries(params)) {
    for (const part of Array.isArray(value) ? value : [value]) if (typeof part === "string") names.set(part, name);
  }
  const path = new URL(request.url).pathname
    .split("/")
    .map((segment) => {
      const name = names.get(safeDecode(segment));
      return name ? `[${name}]` : segment;
    })
    .join("/");
  return `${request.method.toUpperCase()} ${path}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
