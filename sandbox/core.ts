/*
 * The core API (`{core_url}` = /core): create a verification, list the most recent verification of each
 * person, fetch one, and sign its file URLs. Order of checks on read routes: IP allow-list, key, query
 * parameters, permission, resource.
 */
import { API_KEYS, type ApiKey, type Permission } from "./api-keys";
import { signedFiles } from "./files";
import { formatCpf, maskCpf, validCpf } from "./fixtures/cpf";
import { FLOWS, JOURNEYS, STATUSES, type VerificationRecord } from "./fixtures/verifications";
import { ipInCidr, json, mediaType, type Ctx, type Reply, type Router } from "./http";
import type { PersonFacts } from "./person-facts";
import type { SandboxState } from "./state";
import type { ListFilter, VerificationStore } from "./verification-store";

export interface Detail {
  field: string;
  message: string;
}

const NO_STORE = { "cache-control": "no-store" };

export function coreError(status: number, code: string, message: string, details: Detail[] = []): Reply {
  return json(status, { error: { code, message, details } }, NO_STORE);
}

export const LIST_FILTERS = ["status", "flow", "journey", "from", "to", "per_page"] as const;
export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;
/** America/Sao_Paulo has had no daylight saving time since 2019: always UTC-3. */
const SAO_PAULO_OFFSET_MS = 3 * 3600_000;
const DAY_MS = 86_400_000;

/** The key the request names, unless a rotation's grace has ended for it (api-keys.ts, KeyValidity). */
function findKey(state: SandboxState, ctx: Ctx): ApiKey | undefined {
  const value = ctx.header("x-api-key");
  if (value === undefined || state.keys.expired(value, state.clock.now())) return undefined;
  return API_KEYS.get(value);
}

/** IP allow-list first (raised "before the API"), then the key itself. */
function authenticateRead(state: SandboxState, ctx: Ctx): ApiKey | Reply {
  const key = findKey(state, ctx);
  if (key?.ipAllow && !key.ipAllow.some((cidr) => ipInCidr(ctx.ip, cidr))) {
    return coreError(403, "E_IP_NOT_ALLOWED", "The caller's IP address is not allowed to use the read routes of this key.");
  }
  if (!key) return coreError(401, "E_UNAUTHORIZED", "Missing or invalid API key.");
  return key;
}

function requirePermissions(key: ApiKey, needed: Permission[]): Reply | null {
  const missing = needed.filter((permission) => !key.permissions.has(permission));
  if (missing.length === 0) return null;
  return coreError(
    403,
    "E_PERMISSION_DENIED",
    `The API key lacks the permission${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`,
    missing.map((permission) => ({ field: "permission", message: permission })),
  );
}

function unknownParams(query: URLSearchParams, allowed: ReadonlySet<string>): Reply | null {
  const unknown = [...new Set(query.keys())].filter((name) => !allowed.has(name));
  if (unknown.length === 0) return null;
  return coreError(
    400,
    "E_VALIDATION_FAILURE",
    `Unknown query parameter${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}.`,
    unknown.map((field) => ({ field, message: "Unknown query parameter." })),
  );
}

/** `YYYY-MM-DD` (a day in America/Sao_Paulo) or an ISO 8601 instant with a zone. Returns [start, end) in ms. */
export function parseDateBound(value: string): [number, number] | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day) {
    const [year, month, date] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = Date.UTC(year, month - 1, date);
    const check = new Date(start);
    if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date) return null;
    return [start + SAO_PAULO_OFFSET_MS, start + SAO_PAULO_OFFSET_MS + DAY_MS];
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(value)) return null;
  const instant = Date.parse(value);
  return Number.isNaN(instant) ? null : [instant, instant + 1];
}

function parseListQuery(state: SandboxState, query: URLSearchParams): ListFilter | Detail[] {
  const pageParam = state.config.pageParam;
  const problems: Detail[] = [];
  for (const name of [...LIST_FILTERS, pageParam]) {
    const values = query.getAll(name);
    if (values.length > 1) problems.push({ field: name, message: "Give this parameter once." });
    else if (values.length === 1 && values[0]!.trim() === "") problems.push({ field: name, message: "Empty value." });
  }
  if (problems.length > 0) return problems;

  const filter: ListFilter = { statusMask: null, flow: null, journey: null, fromMs: null, toMs: null, page: 1, perPage: DEFAULT_PER_PAGE };

  const status = query.get("status");
  if (status !== null) {
    const mask = new Uint8Array(STATUSES.length);
    for (const item of status.split(",").map((part) => part.trim())) {
      const code = (STATUSES as readonly string[]).indexOf(item);
      if (code < 0) {
        problems.push({ field: "status", message: `Unknown status '${item}'. Allowed: ${STATUSES.join(", ")}.` });
        break;
      }
      mask[code] = 1;
    }
    filter.statusMask = mask;
  }
  const flow = query.get("flow");
  if (flow !== null) filter.flow = (FLOWS as readonly string[]).indexOf(flow);
  const journey = query.get("journey");
  if (journey !== null) filter.journey = (JOURNEYS as readonly string[]).indexOf(journey);

  const from = query.get("from");
  if (from !== null) {
    const bound = parseDateBound(from);
    if (bound) filter.fromMs = bound[0];
    else problems.push({ field: "from", message: "Expected YYYY-MM-DD or an ISO 8601 instant." });
  }
  const to = query.get("to");
  if (to !== null) {
    const bound = parseDateBound(to);
    if (bound) filter.toMs = bound[1];
    else problems.push({ field: "to", message: "Expected YYYY-MM-DD or an ISO 8601 instant." });
  }

  const perPage = query.get("per_page");
  if (perPage !== null) {
    if (/^\d{1,6}$/.test(perPage) && Number(perPage) >= 1 && Number(perPage) <= MAX_PER_PAGE) filter.perPage = Number(perPage);
    else problems.push({ field: "per_page", message: `Expected an integer between 1 and ${MAX_PER_PAGE}.` });
  }
  const page = query.get(pageParam);
  if (page !== null) {
    if (/^\d{1,9}$/.test(page) && Number(page) >= 1) filter.page = Number(page);
    else problems.push({ field: pageParam, message: "Expected an integer of at least 1." });
  }
  return problems.length > 0 ? problems : filter;
}

function maskWords(value: string): string {
  return value
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => `${[...word][0]}***`)
    .join(" ");
}

export function presentVerification(
  record: VerificationRecord,
  unmasked: boolean,
  store?: VerificationStore,
  people?: PersonFacts,
): Record<string, unknown> {
  // The person as they are today: facts set since the verification (person-facts.ts) included.
  const person = people ? people.of(record.person) : record.person;
  return {
    public_id: record.publicId,
    document: unmasked ? formatCpf(record.cpf) : maskCpf(record.cpf),
    status: record.status,
    flow: record.flow,
    journey: record.journey,
    created_at: new Date(record.createdAt).toISOString(),
    name: unmasked ? person.name : maskWords(person.name),
    mother_name: unmasked ? person.motherName : maskWords(person.motherName),
    birth_date: unmasked ? person.birthDate : "****-**-**",
    pep: person.pep,
    pep_origin: person.pepOrigin,
    restrictive_lists: person.restrictiveLists,
    steps: record.steps,
    identity_score: record.identityScore,
    risk_score: record.riskScore,
    decided_at: record.decidedAt === null ? null : new Date(record.decidedAt).toISOString(),
    // Source: legitimuz-core-documentation api/verification-statuses.mdx (afcc2cb): expiry is read from `expires_at`.
    ...(store ? { expires_at: new Date(store.expiresAt(record)).toISOString() } : {}),
    // Source: the same page's review sub-states; the field name is a sandbox assumption (the page names none).
    ...(store && record.status === "review" ? { review_state: store.reviewStateOf(record) } : {}),
  };
}

function notFound(): Reply {
  return coreError(404, "E_NOT_FOUND", "Verification not found.");
}

function list(state: SandboxState, ctx: Ctx): Reply {
  const key = authenticateRead(state, ctx);
  if (!("permissions" in key)) return key;
  const allowed = new Set<string>([...LIST_FILTERS, state.config.pageParam]);
  const unknown = unknownParams(ctx.query, allowed);
  if (unknown) return unknown;
  const filter = parseListQuery(state, ctx.query);
  if (Array.isArray(filter)) {
    return coreError(
      400,
      "E_VALIDATION_FAILURE",
      `Invalid query parameter: ${[...new Set(filter.map((d) => d.field))].join(", ")}.`,
      filter,
    );
  }
  const denied = requirePermissions(key, ["view"]);
  if (denied) return denied;
  const store = state.verifications.get(key.integration, key.environment);
  const { items, total } = store ? store.list(filter) : { items: [], total: 0 };
  const unmasked = key.permissions.has("unmasked");
  return json(
    200,
    {
      data: items.map((record) => presentVerification(record, unmasked, store, state.people)),
      pagination: { page: filter.page, per_page: filter.perPage, total },
    },
    NO_STORE,
  );
}

function fetchOne(state: SandboxState, ctx: Ctx): Reply {
  const key = authenticateRead(state, ctx);
  if (!("permissions" in key)) return key;
  const unknown = unknownParams(ctx.query, new Set());
  if (unknown) return unknown;
  const denied = requirePermissions(key, ["view"]);
  if (denied) return denied;
  const store = state.verifications.get(key.integration, key.environment);
  const record = store?.find(ctx.params.public_id ?? "");
  if (!record) return notFound();
  return json(200, presentVerification(record, key.permissions.has("unmasked"), store, state.people), NO_STORE);
}

function files(state: SandboxState, ctx: Ctx): Reply {
  const key = authenticateRead(state, ctx);
  if (!("permissions" in key)) return key;
  if (ctx.rawQuery !== null) {
    const names = [...new Set(ctx.query.keys())];
    return coreError(
      400,
      "E_VALIDATION_FAILURE",
      "This route accepts no query string.",
      names.length > 0
        ? names.map((field) => ({ field, message: "Unknown query parameter." }))
        : [{ field: "query", message: "No query string is accepted." }],
    );
  }
  const denied = requirePermissions(key, ["view", "media"]);
  if (denied) return denied;
  const record = state.verifications.get(key.integration, key.environment)?.find(ctx.params.public_id ?? "");
  if (!record) return notFound();
  const signed = signedFiles(state, record);
  return json(200, { selfie: signed.selfie, document_back: signed.document_back, document_front: signed.document_front }, NO_STORE);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function create(state: SandboxState, ctx: Ctx): Promise<Reply> {
  const key = findKey(state, ctx);
  if (!key) return coreError(401, "E_UNAUTHORIZED", "Missing or invalid API key.");
  if (mediaType(ctx.header("content-type")) !== "application/json") {
    return coreError(415, "E_UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json.");
  }
  let body: unknown;
  try {
    body = JSON.parse((await ctx.body()).toString("utf8"));
  } catch {
    return coreError(400, "E_VALIDATION_FAILURE", "The body is not valid JSON.", [{ field: "body", message: "Invalid JSON." }]);
  }
  if (!isObject(body)) {
    return coreError(400, "E_VALIDATION_FAILURE", "The body must be a JSON object.", [{ field: "body", message: "Expected an object." }]);
  }
  const details: Detail[] = [];
  if ("integration_origin_public_id" in body) {
    details.push({
      field: "integration_origin_public_id",
      message: "This field was removed; the origin is authorised by the integration's verified domains.",
    });
  }
  const nonEmptyString = (value: unknown) => typeof value === "string" && value.trim() !== "";
  if (!nonEmptyString(body.schema_version)) details.push({ field: "schema_version", message: "Required: a non-empty string." });
  if (!nonEmptyString(body.ref_id)) details.push({ field: "ref_id", message: "Required: a non-empty string." });
  let cpf: string | null = null;
  const document = body.document;
  if (!isObject(document)) {
    details.push({ field: "document", message: "Required: an object with type and number." });
  } else {
    if (!nonEmptyString(document.type)) details.push({ field: "document.type", message: "Required: a non-empty string." });
    if (typeof document.number !== "string") details.push({ field: "document.number", message: "Required: a string." });
    else if (!(cpf = validCpf(document.number))) details.push({ field: "document.number", message: "Not a valid CPF (check digits)." });
  }
  // ASSUMPTION (docs/assumptions.md#creation-flow): the sandbox's flows are addressed by their names (the
  // material's flow_public_id is an opaque id).
  let flow: (typeof FLOWS)[number] | undefined;
  if (body.flow_public_id !== undefined) {
    flow = FLOWS.find((name) => name === body.flow_public_id);
    if (!flow) details.push({ field: "flow_public_id", message: `Unknown flow; this sandbox has ${FLOWS.join(", ")}.` });
  }
  if (details.length > 0 || cpf === null) {
    return coreError(
      400,
      "E_VALIDATION_FAILURE",
      `Invalid field${details.length > 1 ? "s" : ""}: ${details.map((d) => d.field).join(", ")}.`,
      details,
    );
  }
  const store = state.verifications.get(key.integration, key.environment);
  if (!store) return coreError(404, "E_NOT_FOUND", "No verifications for this integration.");
  // The fields that make "the same payload" for idempotency: everything the sandbox reads from the body.
  const request = {
    refId: (body.ref_id as string).trim(),
    fingerprint: JSON.stringify([(body.schema_version as string).trim(), (document as Record<string, unknown>).type, cpf, flow ?? null]),
  };
  const existing = store.existing(request);
  if (existing && "conflict" in existing) {
    return coreError(
      409,
      "E_REF_ID_CONFLICT",
      "This ref_id was already used with a different payload; a new verification needs a new ref_id.",
      [{ field: "ref_id", message: "Already used with a different payload." }],
    );
  }
  if (existing) return json(200, creationAnswer(state, store, existing.record), NO_STORE);
  const record = store.create(cpf, state.clock.now(), request, flow ?? "default");
  state.events.announce({ store, integration: key.integration }, record, ["verification.created"]);
  return json(201, creationAnswer(state, store, record), NO_STORE);
}

/**
 * `{verification, entry}`: the shape every creation example of the provider reads (legitimuz-examples
 * pocs/express-backend/server.ts, pocs/resume-expiry, pocs/qr-handoff at dec4b2c), plus `sdkUrl`, the name the
 * documentation gives the answer (legitimuz-core-documentation api/verifications.mdx at afcc2cb: "A resposta é a
 * sdkUrl"; its body is "published when the contract closes"): the same address as `entry.url`. A repeat answers the
 * verification's current status.
 */
function creationAnswer(state: SandboxState, store: VerificationStore, record: VerificationRecord): Record<string, unknown> {
  const url = `${state.publicBase}/widget/${record.publicId}?lang=pt-BR`;
  return {
    verification: {
      public_id: record.publicId,
      ref_id: store.refIdOf(record.publicId),
      status: record.status,
      flow: record.flow,
      created_at: new Date(record.createdAt).toISOString(),
      expires_at: new Date(store.expiresAt(record)).toISOString(),
    },
    entry: { kind: "web", url },
    sdkUrl: url,
  };
}

export function coreRoutes(state: SandboxState, router: Router): void {
  router
    .add("GET", "/core/public/validations-persons", (ctx) => list(state, ctx))
    .add("GET", "/core/public/validations-persons/:public_id", (ctx) => fetchOne(state, ctx))
    .add("GET", "/core/public/validations-persons/:public_id/files", (ctx) => files(state, ctx))
    .add("POST", "/core/public/verifications", (ctx) => create(state, ctx));
}

/** Runs the list path once before listening, so the first real call does not pay for the JIT warming up. */
export function warmUp(state: SandboxState): void {
  const filter: ListFilter = { statusMask: null, flow: null, journey: null, fromMs: null, toMs: null, page: 1, perPage: MAX_PER_PAGE };
  for (const { store } of state.verifications.entries()) {
    const { items } = store.list(filter);
    JSON.stringify(items.map((record) => presentVerification(record, false)));
    if (items[0]) store.find(items[0].publicId);
  }
}
