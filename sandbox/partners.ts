/*
 * The partners API (`{base_url}` = /partners): login, integration keys, CPF history, federal revenue
 * lookup, KYC session start, SMS codes. Writes take multipart/form-data only. The client's domain travels in
 * SANDBOX_DOMAIN_HEADER (Origin by default), and always in Origin on the federal revenue lookup (contract) and
 * the SMS routes (the provider's API reference, https://legitimuz.mintlify.app/api-reference/sms/validate-code).
 */
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

import { digest, isoWithOffset, type Account, type Integration } from "./accounts";
import { validCpf } from "./fixtures/cpf";
import { ageAt, normalizeName, personFromCpf, zodiacSign, type Person } from "./fixtures/people";
import { hashString } from "./fixtures/prng";
import { json, mediaType, parseMultipart, type Ctx, type Reply, type Router } from "./http";
import type { SandboxState } from "./state";

export const SMS_COOLDOWN_SECONDS = 30;
export const SMS_CODE_TTL_SECONDS = 600;
export const SMS_MAX_WRONG_ATTEMPTS = 5;
export const SMS_JWT_TTL_SECONDS = 600;
export const LOGIN_EXPIRATION = { min: 60, max: 86_400, default: 3600 } as const;

type Errors = Record<string, string[]>;

export function partnersError(status: number, message: string, errors?: Errors, headers: Record<string, string> = {}): Reply {
  return json(status, errors ? { message, errors } : { message }, headers);
}

const unauthenticated = () => partnersError(401, "Unauthenticated.");
const invalidData = (errors: Errors) => partnersError(422, "The given data was invalid.", errors);

/* ---------- JWT (HS256) ---------- */

interface Claims {
  iss: string;
  sub: string;
  tenant_id: number;
  scope: "partner" | "sms";
  integration?: string;
  iat: number;
  exp: number;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

export function signJwt(secret: Buffer, claims: Claims): string {
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(JSON.stringify(claims));
  const mac = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${mac}`;
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

async function readForm(ctx: Ctx): Promise<Map<string, string> | Reply> {
  const contentType = ctx.header("content-type") ?? "";
  if (mediaType(contentType) !== "multipart/form-data") {
    return partnersError(415, "Unsupported Media Type. Send the fields as multipart/form-data.");
  }
  const form = parseMultipart(await ctx.body(), contentType);
  if (!form) return partnersError(400, "Malformed multipart/form-data body.");
  return form.fields;
}

function required(fields: Map<string, string> | URLSearchParams, names: string[]): Errors | null {
  const errors: Errors = {};
  for (const name of names) {
    const value = fields.get(name);
    if (value === null || value === undefined || value.trim() === "") errors[name] = [`The ${name} field is required.`];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

function authenticate(state: SandboxState, ctx: Ctx): Account | Reply {
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

function accountDomainCheck(state: SandboxState, ctx: Ctx, account: Account): Reply | null {
  const host = domainHeader(state, ctx);
  if (host !== null && state.partners.domainsOf(account).has(host)) return null;
  return partnersError(403, "This domain is not registered for the account.", {
    domain: ["The domain header must be one of the account's integration domains."],
  });
}

/** The integration behind a token: known (401), of the caller's account and used from its own domain (403). */
function integrationCheck(state: SandboxState, ctx: Ctx, token: string, account: Account | null, header?: string): Integration | Reply {
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

function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && "status" in value && "body" in value && Buffer.isBuffer((value as Reply).body);
}

/* ---------- records ---------- */

export function historyRecord(person: Person, nowMs: number): Record<string, unknown> {
  const sparse = person.sparse;
  const parts = person.nameParts;
  return {
    cpf: person.cpf,
    data_emissao: sparse ? "" : person.issueDate,
    data_inscricao: person.registrationDate,
    data_inscricao_antes_1990: Number(person.registrationDate.slice(0, 4)) < 1990,
    data_nascimento: person.birthDate,
    digito_verificador: person.cpf.slice(9),
    genero: sparse ? "" : person.gender,
    idade: String(ageAt(person.birthDate, nowMs)),
    nacionalidade: sparse ? "" : "BRASILEIRA",
    nome: normalizeName(person.name),
    nome_mae: normalizeName(person.motherName),
    signo: sparse ? "" : zodiacSign(person.birthDate),
    outros_campos: {
      exclusive_name: sparse ? "" : normalizeName(person.name),
      nome: {
        nomeDoMeio: sparse ? "" : normalizeName(parts.middle),
        nomeSocial: normalizeName(person.socialName),
        primeiroNome: normalizeName(parts.first),
        sobrenome: normalizeName(parts.last),
      },
      obito: person.deceased,
      origem: "RECEITA FEDERAL",
      pep: person.pep,
      situacao: person.situation,
      uf_cpf: sparse ? "" : person.uf,
    },
  };
}

export function revenueRecord(person: Person): Record<string, unknown> {
  const h = hashString(`issued:${person.cpf}`);
  const time = `${String(9 + (h % 10)).padStart(2, "0")}:${String((h >>> 4) % 60).padStart(2, "0")}:${String((h >>> 10) % 60).padStart(2, "0")}`;
  const parts = person.nameParts;
  return {
    AnoObito: person.deathYear,
    Celular: person.sparse ? "" : person.phone,
    CodigoControleComprovante: person.receiptCode,
    ConstaObito: person.deceased,
    DataEmissao: `${person.issueDate}T${time}Z`,
    DataInscricao: `${person.registrationDate}T00:00:00Z`,
    DataInscricaoAnterior1990: Number(person.registrationDate.slice(0, 4)) < 1990,
    DataNascimento: `${person.birthDate}T00:00:00Z`,
    DataNascimentoInvalidaExistente: false,
    DigitoVerificador: person.cpf.slice(9),
    Email: person.sparse ? "" : person.email,
    NomePessoaFisica: normalizeName(person.name),
    NomeSocial: normalizeName(person.socialName),
    NomesMeioNomeNorm: normalizeName(parts.middle),
    NumeroCpf: person.cpf,
    Origem: "RECEITA FEDERAL",
    PrimeirosNomesNorm: normalizeName(parts.first),
    QrCodeLink: person.receiptCode ? `https://receita.sandbox.local/comprovante/${person.cpf}/${person.receiptCode}` : null,
    SituacaoCadastral: person.situation,
    SobrenomesNorm: normalizeName(parts.last),
  };
}

/* ---------- routes ---------- */

async function login(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const missing = required(fields, ["username", "password"]);
  if (missing) return invalidData(missing);
  let expiration: number = LOGIN_EXPIRATION.default;
  const rawExpiration = fields.get("expiration");
  if (rawExpiration !== undefined && rawExpiration.trim() !== "") {
    const value = rawExpiration.trim();
    if (!/^\d{1,9}$/.test(value) || Number(value) < LOGIN_EXPIRATION.min || Number(value) > LOGIN_EXPIRATION.max) {
      return invalidData({
        expiration: [`The expiration must be an integer between ${LOGIN_EXPIRATION.min} and ${LOGIN_EXPIRATION.max} (seconds).`],
      });
    }
    expiration = Number(value);
  }
  const account = state.partners.byUsername(fields.get("username"));
  const given = digest(fields.get("password") ?? "");
  if (!account || !timingSafeEqual(given, account.passwordDigest)) return partnersError(401, "Invalid credentials.");
  const refused = accountDomainCheck(state, ctx, account);
  if (refused) return refused;
  const now = state.clock.nowSeconds();
  const token = signJwt(state.jwtSecret, {
    iss: "identity-verification-sandbox",
    sub: String(account.userId),
    tenant_id: account.tenantId,
    scope: "partner",
    iat: now,
    exp: now + expiration,
  });
  return json(200, { token, expires_in: expiration });
}

async function createIntegration(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const account = authenticate(state, ctx);
  if (isReply(account)) return account;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const refused = accountDomainCheck(state, ctx, account);
  if (refused) return refused;
  const missing = required(fields, ["domain", "label"]);
  if (missing) return invalidData(missing);
  const domain = normalizeHost(fields.get("domain") ?? "");
  const label = (fields.get("label") ?? "").trim();
  const errors: Errors = {};
  if (!domain) errors.domain = ["The domain must be a URL or a host name."];
  if (label.length > 255) errors.label = ["The label may not be greater than 255 characters."];
  if (!domain || Object.keys(errors).length > 0) return invalidData(errors);
  const integration = state.partners.createIntegration(account, domain, label);
  return json(200, { integration, message: "Successfully Processed!", type: "insert" });
}

/** Shared by the CPF history and the federal revenue lookup. */
function lookup(state: SandboxState, ctx: Ctx, header: string | undefined, answer: (person: Person) => unknown): Reply {
  const account = authenticate(state, ctx);
  if (isReply(account)) return account;
  const missing = required(ctx.query, ["token", "cpf"]);
  if (missing) return invalidData(missing);
  const integration = integrationCheck(state, ctx, ctx.query.get("token") ?? "", account, header);
  if (isReply(integration)) return integration;
  const cpf = validCpf(ctx.query.get("cpf") ?? "");
  if (!cpf) return invalidData({ cpf: ["The cpf is not a valid CPF."] });
  return json(200, answer(personFromCpf(cpf)));
}

function cpfHistory(state: SandboxState, ctx: Ctx): Reply {
  return lookup(state, ctx, undefined, (person) => ({ dados: historyRecord(person, state.clock.now()) }));
}

/** The federal revenue lookup: always `Origin`, echoed in access-control-allow-origin. */
function receita(state: SandboxState, ctx: Ctx): Reply {
  const reply = lookup(state, ctx, "origin", (person) => ({ Result: revenueRecord(person) }));
  return withCors(ctx, reply);
}

export function withCors(ctx: Ctx, reply: Reply): Reply {
  const origin = ctx.header("origin");
  if (origin === undefined) return reply;
  return {
    ...reply,
    headers: { ...reply.headers, "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" },
  };
}

async function sdkUrl(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const account = authenticate(state, ctx);
  if (isReply(account)) return account;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const missing = required(fields, ["cpf", "token"]);
  if (missing) return invalidData(missing);
  const token = (fields.get("token") ?? "").trim();
  const integration = integrationCheck(state, ctx, token, account);
  if (isReply(integration)) return integration;
  const cpf = validCpf(fields.get("cpf") ?? "");
  if (!cpf) return invalidData({ cpf: ["The cpf is not a valid CPF."] });
  const lang = fields.get("lang")?.trim() || "pt-BR";
  if (!/^[a-z]{2}(-[A-Z]{2})?$/.test(lang)) return invalidData({ lang: ["The lang must be a language tag such as pt-BR."] });

  const session = state.sessions.create(cpf, integration.uuid);
  const now = isoWithOffset(session.createdAt);
  const cliente = historyRecord(personFromCpf(cpf), session.createdAt);
  return json(200, {
    personId: session.personId,
    url: `${state.publicBase}/widget/${session.sessionId}?token=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`,
    vp: {
      id: session.personId,
      cpf,
      name: cliente.nome,
      id_integration: integration.id,
      tenant_id: integration.tenant_id,
      session_id: session.sessionId,
      status: "Iniciado",
      validation_step: 1,
      meta: { cliente, status: "Iniciado" },
      created_at: now,
      updated_at: now,
    },
  });
}

async function generateJwt(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const account = authenticate(state, ctx);
  if (isReply(account)) return account;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const missing = required(fields, ["token"]);
  if (missing) return invalidData(missing);
  const integration = integrationCheck(state, ctx, fields.get("token") ?? "", account);
  if (isReply(integration)) return integration;
  const now = state.clock.nowSeconds();
  const token = signJwt(state.jwtSecret, {
    iss: "identity-verification-sandbox",
    sub: String(account.userId),
    tenant_id: account.tenantId,
    scope: "sms",
    integration: integration.uuid,
    iat: now,
    exp: now + SMS_JWT_TTL_SECONDS,
  });
  return json(200, { token });
}

/**
 * SMS routes, as the provider's reference shows validate-code: the JWT from generate_jwt as a bearer token
 * (SANDBOX_SMS_JWT_HEADER, default Authorization), the integration token in `x-api-key`
 * (SANDBOX_SMS_TOKEN_HEADER) and the client's domain in `Origin`. The integration token must be the one the
 * JWT was made for, and Origin that integration's domain.
 */
function smsAuth(state: SandboxState, ctx: Ctx): Integration | Reply {
  const raw = (ctx.header(state.config.smsJwtHeader) ?? "").trim();
  const jwt = raw.replace(/^Bearer\s+/i, "");
  const claims = jwt === "" ? null : verifyJwt(state.jwtSecret, jwt, state.clock.nowSeconds());
  if (!claims || claims.scope !== "sms") return unauthenticated();
  const token = ctx.header(state.config.smsTokenHeader) ?? "";
  const integration = integrationCheck(state, ctx, token, null, "origin");
  if (isReply(integration)) return integration;
  if (integration.uuid !== claims.integration) return partnersError(403, "The integration token does not match the JWT.");
  return integration;
}

/** `phone`: a form field or a query parameter (the reference lists it as both on validate-code). */
function phoneOf(fields: Map<string, string>, ctx: Ctx): string | Reply {
  const raw = (fields.get("phone") ?? ctx.query.get("phone") ?? "").trim();
  if (raw === "") return invalidData({ phone: ["The phone field is required."] });
  const phone = raw.replace(/^\+/, "");
  if (!/^\d{12,13}$/.test(phone)) return invalidData({ phone: ["The phone must be 12 or 13 digits, country code included."] });
  return phone;
}

export function maskPhone(phone: string): string {
  return `+${phone.slice(0, 2)}******${phone.slice(-4)}`;
}

async function sendCode(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const integration = smsAuth(state, ctx);
  if (isReply(integration)) return integration;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const phone = phoneOf(fields, ctx);
  if (isReply(phone)) return phone;
  const now = state.clock.now();
  const previous = state.sms.get(phone);
  if (previous && now - previous.sentAt < SMS_COOLDOWN_SECONDS * 1000) {
    const wait = Math.ceil((previous.sentAt + SMS_COOLDOWN_SECONDS * 1000 - now) / 1000);
    return partnersError(429, `Too many requests. Try again in ${wait} seconds.`, undefined, { "retry-after": String(wait) });
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  state.sms.issue(phone, { code, sentAt: now, expiresAt: now + SMS_CODE_TTL_SECONDS * 1000, wrongAttempts: 0 });
  console.log(`sms to ${maskPhone(phone)}: code ${code}`);
  return json(200, { message: "Code sent." });
}

async function validateCode(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const integration = smsAuth(state, ctx);
  if (isReply(integration)) return integration;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const phone = phoneOf(fields, ctx);
  if (isReply(phone)) return phone;
  // The reference passes `code` as a query parameter only (its form fields are `phone` and `message`).
  const given = (ctx.query.get("code") ?? "").trim();
  const invalid = () => partnersError(422, "Invalid code.", { code: ["Invalid code."] });
  const entry = state.sms.get(phone);
  if (!entry || state.clock.now() > entry.expiresAt) {
    state.sms.drop(phone);
    return invalid();
  }
  if (given === "" || given !== entry.code) {
    entry.wrongAttempts++;
    if (entry.wrongAttempts >= SMS_MAX_WRONG_ATTEMPTS) state.sms.drop(phone);
    return invalid();
  }
  state.sms.drop(phone);
  return json(200, { valid: true });
}

export function partnersRoutes(state: SandboxState, router: Router): void {
  router
    .add("POST", "/partners/auth/login", (ctx) => login(state, ctx))
    .add("POST", "/partners/integrations", (ctx) => createIntegration(state, ctx))
    .add("GET", "/partners/kyc/cpf-history", (ctx) => cpfHistory(state, ctx))
    .add("GET", "/partners/receita-federal/cpf", (ctx) => receita(state, ctx))
    .add("POST", "/partners/kyc/get-sdk-url", (ctx) => sdkUrl(state, ctx))
    .add("POST", "/partners/external/generate_jwt", (ctx) => generateJwt(state, ctx))
    .add("POST", "/partners/sms/send-code", (ctx) => sendCode(state, ctx))
    .add("POST", "/partners/sms/validate-code", (ctx) => validateCode(state, ctx));
}
