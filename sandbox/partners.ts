/*
 * The partners API (`{base_url}` = /partners): login, integration keys, CPF history, federal revenue
 * lookup, KYC session start, SMS codes. Writes take multipart/form-data only. The client's domain travels in
 * SANDBOX_DOMAIN_HEADER (Origin by default), and always in Origin on the federal revenue lookup (contract) and
 * the SMS routes (the provider's API reference, https://legitimuz.mintlify.app/api-reference/sms/validate-code).
 */
import { timingSafeEqual } from "node:crypto";

import { digest, isoWithOffset } from "./accounts";
import { validCpf } from "./fixtures/cpf";
import { personFromCpf, type Person } from "./fixtures/people";
import { json, type Ctx, type Reply, type Router } from "./http";
import {
  accountDomainCheck,
  accountJwt,
  authenticate,
  integrationCheck,
  invalidData,
  isReply,
  normalizeHost,
  partnersError,
  readForm,
  required,
  type Errors,
} from "./partners-auth";
import { historyRecord, revenueRecord } from "./partners-records";
import { generateJwt, sendCode, validateCode } from "./partners-sms";
import type { SandboxState } from "./state";

export const LOGIN_EXPIRATION = { min: 60, max: 86_400, default: 3600 } as const;

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
  const token = accountJwt(state, account, expiration, { scope: "partner" });
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
  return json(200, answer(state.people.of(personFromCpf(cpf))));
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
  const cliente = historyRecord(state.people.of(personFromCpf(cpf)), session.createdAt);
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
