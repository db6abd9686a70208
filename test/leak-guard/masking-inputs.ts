import { OVERVIEW_TABLES } from "@/lib/overview/tables";

// The masking guard's inputs (test/leak-guard/masking.test.ts): how to call each route that cannot be called
// generically, or why its answer holds no titular's data. A new route is guarded by adding its entry here.

/** The HTTP methods a route file may export. */
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type Method = (typeof METHODS)[number];

/** What a call needs from the data the guard set up. */
export interface Ids {
  publicId: string;
  casePublicId: string;
  cpf: string;
  refId: string;
  staffId: string;
  mediaToken: string;
}

export interface Call {
  label?: string;
  params?: Record<string, string | string[]>;
  query?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Server-Sent Events: read for a bounded time, then closed. */
  stream?: true;
  /** A 5xx this call may answer by design (readiness is 503 while a dependency is slow). */
  mayFail?: number;
}

/** The inputs of each route that cannot be called generically, or why its answer holds no titular's data. */
export type Inputs = { calls: (ids: Ids) => Call[] } | { skip: string };

const PURPOSE = "Masking guard check";
const MEMBER_ONLY = "answers the member's own account (factors, sessions, sign-in steps), no titular's data";
const ADMIN_ONLY = "answers staff, roles or keys, no titular's data";
const TEMPLATES = "a decision template: its reasons and comment text, which may hold no person's data (a CPF is refused)";
const CASE_WORK = "changes a case and answers its id, status or owner; the case itself is read by GET /api/cases/[publicId]";

export const INPUTS: Record<string, Inputs> = {
  // Generic GETs with more to see than their default answer.
  "GET /api/verifications": { calls: () => [{ query: "per_page=100" }, { query: "status=review&per_page=100" }] },
  "GET /api/verifications/export": { calls: () => [{ query: "status=review" }] },
  "GET /api/audit": { calls: () => [{}, { query: "format=csv" }] },
  "GET /api/cases": { calls: () => ["open", "mine", "unassigned", "confirming", "closed"].map((queue) => ({ query: `queue=${queue}` })) },
  "GET /api/overview/export": { calls: () => OVERVIEW_TABLES.map((table) => ({ query: `table=${table}` })) },
  "GET /api/analytics/team": { calls: () => [{}, { query: "format=csv" }] },
  "GET /api/verification-events": { calls: () => [{}, { query: "after=0" }] },
  "GET /api/events/stream": { calls: () => [{ query: "lastEventId=0", stream: true }] },
  "GET /api/health": { calls: () => [{}, { query: "ready", mayFail: 503 }] },
  // Dynamic segments.
  "GET /api/verifications/[publicId]": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/events": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/media": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/related": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/verifications/[publicId]/crop": { calls: (ids) => [{ params: { publicId: ids.publicId } }] },
  "GET /api/cases/[publicId]": { calls: (ids) => [{ params: { publicId: ids.casePublicId } }] },
  "GET /api/media/[token]": { calls: (ids) => [{ params: { token: ids.mediaToken } }] },
  "GET /api/staff/[id]/sessions": { calls: (ids) => [{ params: { id: ids.staffId } }] },
  "GET /api/staff/[id]/connections": { calls: (ids) => [{ params: { id: ids.staffId } }] },
  "GET /api/auth/[...nextauth]": { skip: "next-auth's own endpoints: the member's own session, CSRF token and providers" },
  // Answers that carry a person's data.
  "POST /api/search": { calls: (ids) => [{ body: { ref_id: ids.refId } }, { body: { cpf: ids.cpf } }] },
  "POST /api/lookups/cpf": {
    calls: (ids) => (["receita", "history"] as const).map((source) => ({ body: { cpf: ids.cpf, source, purpose: PURPOSE } })),
  },
  "POST /api/verifications/[publicId]/record": {
    calls: (ids) => [{ params: { publicId: ids.publicId }, body: { purpose: PURPOSE, sources: ["receita", "history"] } }],
  },
  "POST /api/privacy/reports": { calls: (ids) => (["json", "csv"] as const).map((format) => ({ body: { cpf: ids.cpf, format } })) },
  "POST /api/privacy/requests": {
    calls: (ids) => [
      {
        body: { cpf: ids.cpf, kind: "access", channel: "email", receivedAt: new Date().toISOString(), contact: "titular@example.com" },
      },
    ],
  },
  "POST /api/kyc/sessions": { calls: (ids) => [{ body: { cpf: ids.cpf, purpose: PURPOSE } }] },
  // Opens a draft on the case (step-up: the guard's sessions hold a fresh second factor); answers it, document masked.
  "POST /api/cases/[publicId]/suspicious-activity": {
    calls: (ids) => [{ params: { publicId: ids.casePublicId }, body: { summary: "Masking guard check", grounds: ["other"] } }],
  },
  // Answers that hold no titular's data.
  "POST /api/verifications": { skip: "answers the new verification's id, status, ref_id and dates (CreateVerificationResponse)" },
  "POST /api/cases/[publicId]/reverification": { skip: "answers the new verification's id, its address and QR code" },
  "POST /api/cases/[publicId]/assignment": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/notes": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/outcome": { skip: CASE_WORK },
  "POST /api/cases/[publicId]/outcome/confirm": { skip: CASE_WORK },
  "POST /api/cases/bulk": { skip: CASE_WORK },
  "POST /api/cases/sync": { skip: "answers counts of cases opened and closed" },
  "PUT /api/cases/routing": { skip: "the team's queues and rules" },
  "PUT /api/cases/settings": { skip: "the team's take mode" },
  "POST /api/monitoring/run": { skip: "answers counts: people screened, alerts opened, calls and budget" },
  "PUT /api/monitoring/settings": { skip: "the screening's daily budget of upstream calls" },
  "POST /api/monitoring/alerts/[id]/assignment": { skip: "answers the alert's id and its new holder" },
  "POST /api/monitoring/alerts/[id]/outcome": { skip: "answers the alert's id and its outcome" },
  "GET /api/monitoring/alerts/[id]/notes": {
    skip: "answers the notes members typed on an alert (authors, times, their words), nothing the service returned",
  },
  "POST /api/monitoring/alerts/[id]/notes": { skip: "answers the new note's id and time" },
  "POST /api/cases/templates": { skip: TEMPLATES },
  "PATCH /api/cases/templates/[id]": { skip: TEMPLATES },
  "DELETE /api/cases/templates/[id]": { skip: TEMPLATES },
  "PUT /api/verifications/[publicId]/crop": { skip: "answers the crop rectangle the member drew" },
  "DELETE /api/verifications/[publicId]/crop": { skip: "answers nothing but the removal" },
  "POST /api/verifications/[publicId]/media/shown": { skip: "records that images were shown; answers nothing" },
  "POST /api/sms/send": { skip: "answers the phone the member typed, formatted, and the resend delay" },
  "POST /api/sms/validate": { skip: "answers whether the code the member typed is valid" },
  "POST /api/webhooks/verification-events": { skip: "the service's deliveries (one carrying personal data is received in setup)" },
  "POST /api/privacy/erasures": { skip: "answers the request's id and status; the CPF is kept only as its keyed hash" },
  "POST /api/privacy/erasures/[id]/confirm": { skip: "answers the counts erased" },
  "POST /api/privacy/erasures/[id]/cancel": { skip: "answers the request's status" },
  "POST /api/suspicious-activity/[id]/filed": {
    skip: "answers the filed report as GET /api/suspicious-activity lists it (document masked); that one is called",
  },
  "GET /api/suspicious-activity/[id]/dossier": {
    skip:
      "coaf.report only; the verification masked as for a member without personal_data.unmasked, tested in " +
      "app/api/suspicious-activity/route.test.ts and lib/cases/server/suspicious-activity-pdf.test.ts",
  },
  "POST /api/privacy/requests/[id]/close": {
    skip: "answers the closed request as POST /api/privacy/requests does (CPF and contact masked); that one is called",
  },
  "POST /api/notifications/read": { skip: "marks the member's notifications read" },
  "PUT /api/account/availability": { skip: MEMBER_ONLY },
  "DELETE /api/account/factors/[id]": { skip: MEMBER_ONLY },
  "POST /api/account/factors/passkeys/options": { skip: MEMBER_ONLY },
  "POST /api/account/factors/passkeys": { skip: MEMBER_ONLY },
  "POST /api/account/factors/totp": { skip: MEMBER_ONLY },
  "POST /api/account/factors/totp/[id]/verify": { skip: MEMBER_ONLY },
  "POST /api/account/password": { skip: MEMBER_ONLY },
  "DELETE /api/account/sessions/[id]": { skip: MEMBER_ONLY },
  "DELETE /api/account/sessions": { skip: MEMBER_ONLY },
  "POST /api/account/step-up/options": { skip: MEMBER_ONLY },
  "POST /api/account/step-up": { skip: MEMBER_ONLY },
  "POST /api/auth/passkey/options": { skip: MEMBER_ONLY },
  "POST /api/auth/sign-out": { skip: MEMBER_ONLY },
  "POST /api/auth/[...nextauth]": { skip: "next-auth's own endpoints: sign-in callbacks and sign-out" },
  "GET /api/connections": { skip: "answers connections' names, environments and key hints: no titular's data" },
  "POST /api/connections": { skip: ADMIN_ONLY },
  "PATCH /api/connections/[id]": { skip: ADMIN_ONLY },
  "POST /api/connections/[id]/test": { skip: ADMIN_ONLY },
  "POST /api/integrations": { skip: ADMIN_ONLY },
  "POST /api/integrations/reveal": { skip: ADMIN_ONLY },
  "DELETE /api/integrations/reveal": { skip: ADMIN_ONLY },
  "POST /api/integrations/[upstreamId]/retire": { skip: ADMIN_ONLY },
  "PATCH /api/roles/[id]": { skip: ADMIN_ONLY },
  "DELETE /api/roles/[id]": { skip: ADMIN_ONLY },
  "POST /api/roles": { skip: ADMIN_ONLY },
  "POST /api/staff": { skip: ADMIN_ONLY },
  "PATCH /api/staff/[id]": { skip: ADMIN_ONLY },
  "DELETE /api/staff/[id]/factors": { skip: ADMIN_ONLY },
  "DELETE /api/staff/[id]/sessions": { skip: ADMIN_ONLY },
  "POST /api/staff/[id]/unlock": { skip: ADMIN_ONLY },
  "PUT /api/staff/[id]/connections": { skip: ADMIN_ONLY },
  "POST /api/views": { skip: "answers the member's saved list view (filters only)" },
  "DELETE /api/views/[id]": { skip: "removes the member's saved list view" },
};
