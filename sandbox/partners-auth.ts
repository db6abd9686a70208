/* The partners API's errors, its JWTs, and the checks every route makes: the bearer token, the domain, the integration token. */

import { createHmac, timingSafeEqual } from "node:crypto";

import { type Account, type Integration } from "./accounts";
import { json, mediaType, parseMultipart, type Ctx, type Reply } from "./http";
import type { SandboxState } from "./state";

export type Errors = Record<string, string[]>;

export function partnersError(status: number, message: string, errors?: Errors, headers: Record<string, string> = {}): Reply {
  return json(status, errors ? { message, errors } : { message }, headers);
}

export const unauthenticated = () => partnersError(401, "Unauthenticated.");
export const invalidData = (errors: Errors) => partnersError(422, "The given data was invalid.", errors);

/* ---------- JWT (HS256) ---------- */

export interface Claims {
  iss: string;
  sub: string;
  tenant_id: number;
  scope: "partner" | "sms";
  integration?: string;
  iat: number;
  exp: number;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

function signJwt(secret: Buffer, claims: Claims): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(claims));
  const mac = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${mac}`;
}

/** A JWT the sandbox issues to the account: its scope (and integration), valid `seconds` from the sandbox clock's now. */
export function accountJwt(state: SandboxState, account: Account, seconds: number, claims: Pick<Claims, "scope" | "integration">): string {
  const now = state.clock.nowSeconds();
  return signJwt(state.jwtSecret, {
    iss: "identity-verification-sandbox",
    sub: String(account.userId),
    tenant_id: account.tenantId,
    ...claims,
    iat: now,
    exp: now + seconds,
  });
}

export function verifyJwt(secret: Buffer, token: string, nowSeconds: number): Claims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [head, body, mac] = parts as [string, string, string];
  const expected = createHmac("sha256", secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: unknown };
    if (header.alg !== "HS256") return null;
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Claims;
    if (typeof claims.exp !== "number" || claims.exp <= nowSeconds) return null;
    return claims;
  } catch {
    return null;
  }
}

/* ---------- domains ---------- */

/** Lowercase host of a URL or host name (scheme, port, path and trailing dot dropped); null if none. */
export function normalizeHost(value: string): string | null {
  const text = value.trim();
  if (text === "" || /\s/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(host)) return null;
  return host;
}

/* ---------- request helpers ---------- */

export async function readForm(ctx: Ctx): Promise<Map<string, string> | Reply> {
  const contentType = ctx.header("content-type") ?? "";
  if (mediaType(contentType) !== "multipart/form-data") {
    return partnersError(415, "Unsupported Media Type. Send the fields as multipart/form-data.");
  }
  const form = parseMultipart(await ctx.body(), contentType);
  if (!form) return partnersError(400, "Malformed multipart/form-data body.");
  return form.fields;
}

export function required(fields: Map<string, string> | URLSearchParams, names: string[]): Errors | null {
  const errors: Errors = {};
  for (const name of names) {
    const value = fields.get(name);
    if (value === null || value === undefined || value.trim() === "") errors[name] = [`The ${name} field is required.`];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

export function authenticate(state: SandboxState, ctx: Ctx): Account | Reply {
  const match = /^Bearer\s+(\S+)$/i.exec(ctx.header("authorization") ?? "");
  if (!match) return unauthenticated();
  const claims = verifyJwt(state.jwtSecret, match[1]!, state.clock.nowSeconds());
  if (!claims || claims.scope !== "partner") return unauthenticated();
  return state.partners.byTenant(claims.tenant_id) ?? unauthenticated();
}

function domainHeader(state: SandboxState, ctx: Ctx, header = state.config.domainHeader): string | null {
  const value = ctx.header(header);
  return value === undefined ? null : normalizeHost(value);
}

export function accountDomainCheck(state: SandboxState, ctx: Ctx, account: Account): Reply | null {
  const host = domainHeader(state, ctx);
  if (host !== null && state.partners.domainsOf(account).has(host)) return null;
  return partnersError(403, "This domain is not registered for the account.", {
    domain: ["The domain header must be one of the account's integration domains."],
  });
}

/** The integration behind a token: known (401), of the caller's account and used from its own domain (403). */
export function integrationCheck(
  state: SandboxState,
  ctx: Ctx,
  token: string,
  account: Account | null,
  header?: string,
): Integration | Reply {
  const integration = state.partners.integrations.get(token.trim());
  if (!integration) return partnersError(401, "Invalid integration token.");
  if (account && integration.tenant_id !== account.tenantId)
    return partnersError(403, "This integration token belongs to another account.");
  if (domainHeader(state, ctx, header) !== integration.domain) {
    return partnersError(403, "The domain header does not match the integration's domain.", {
      domain: ["The domain header must be the integration's domain."],
    });
  }
  return integration;
}

export function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && "status" in value && "body" in value && Buffer.isBuffer((value as Reply).body);
}
