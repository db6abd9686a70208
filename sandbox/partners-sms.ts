/* The SMS routes: the JWT they need, sending a code, checking it. */

import { randomInt } from "node:crypto";

import type { Integration } from "./accounts";
import { json, type Ctx, type Reply } from "./http";
import {
  accountJwt,
  authenticate,
  integrationCheck,
  invalidData,
  isReply,
  partnersError,
  readForm,
  required,
  unauthenticated,
  verifyJwt,
} from "./partners-auth";
import type { SandboxState } from "./state";

export const SMS_COOLDOWN_SECONDS = 30;
export const SMS_CODE_TTL_SECONDS = 600;
export const SMS_MAX_WRONG_ATTEMPTS = 5;
export const SMS_JWT_TTL_SECONDS = 600;

export async function generateJwt(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const account = authenticate(state, ctx);
  if (isReply(account)) return account;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  const missing = required(fields, ["token"]);
  if (missing) return invalidData(missing);
  const integration = integrationCheck(state, ctx, fields.get("token") ?? "", account);
  if (isReply(integration)) return integration;
  const token = accountJwt(state, account, SMS_JWT_TTL_SECONDS, { scope: "sms", integration: integration.uuid });
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

/** The phone an SMS request is for, once its credentials (smsAuth) and its form pass. */
async function smsPhone(state: SandboxState, ctx: Ctx): Promise<string | Reply> {
  const integration = smsAuth(state, ctx);
  if (isReply(integration)) return integration;
  const fields = await readForm(ctx);
  if (isReply(fields)) return fields;
  return phoneOf(fields, ctx);
}

export async function sendCode(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const phone = await smsPhone(state, ctx);
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

export async function validateCode(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const phone = await smsPhone(state, ctx);
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
