import { NextRequest } from "next/server";
import { expect } from "vitest";

import { GET as auditGet } from "@/app/api/audit/route";
import { GET as health } from "@/app/api/health/route";
import { DELETE as forgetKey, POST as revealKey } from "@/app/api/integrations/reveal/route";
import { POST as createKey, GET as listKeys } from "@/app/api/integrations/route";
import { POST as kycSession } from "@/app/api/kyc/sessions/route";
import { POST as lookupCpf } from "@/app/api/lookups/cpf/route";
import { GET as image } from "@/app/api/media/[token]/route";
import { POST as smsSend } from "@/app/api/sms/send/route";
import { POST as smsValidate } from "@/app/api/sms/validate/route";
import { GET as media } from "@/app/api/verifications/[publicId]/media/route";
import { GET as detail } from "@/app/api/verifications/[publicId]/route";
import { POST as createVerification, GET as listVerifications } from "@/app/api/verifications/route";
import { attemptPasswordSignIn } from "@/lib/auth/server/sign-in";
import { createTestStaff, sessionCookieFor } from "@/test/auth";

import type { LeakHarness } from "./harness";

/*
 * The main flows, through the route handlers the browser calls, each step labelled
 * "<flow>: <step>" (the labels are what secrets.ts's allowances match). Adding a flow: append one to
 * FLOWS; its answers, the server output it causes and what it stores are searched automatically.
 */

type Handler = Parameters<LeakHarness["call"]>[1];

export interface Person {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

export interface FlowContext {
  h: LeakHarness;
  admin: Person;
  analyst: Person;
  /** CPFs typed in the flows (searched for in full everywhere they must appear masked). */
  cpfs: { lookup: string; kyc: string; verification: string };
  /** A Brazilian mobile, formatted as typed. */
  phone: string;
  /** Passwords typed, right or wrong (never to be stored or printed). */
  typedPasswords: string[];
  state: Record<string, unknown>;
}

export interface Flow {
  name: string;
  run(context: FlowContext): Promise<void>;
}

const BASE = "http://localhost:3000";

async function call(
  context: FlowContext,
  flow: string,
  step: string,
  handler: Handler,
  path: string,
  init: Parameters<LeakHarness["call"]>[3] = {},
) {
  return context.h.call(`${flow}: ${step}`, handler, `${BASE}${path}`, init);
}

function cookieFrom(response: Response, name: string): string | undefined {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0]!)
    .find((pair) => pair.startsWith(`${name}=`));
}

export async function signedInPerson(h: LeakHarness, role: "admin" | "analyst", password: string): Promise<Person> {
  const user = await createTestStaff(h.database.db, { role, password });
  return { id: user.id, email: user.email, password, cookie: await sessionCookieFor(h.database.db, user) };
}

export const FLOWS: Flow[] = [
  {
    name: "sign-in",
    async run(context) {
      const db = context.h.database.db;
      const ok = await attemptPasswordSignIn(db, {
        email: context.analyst.email,
        password: context.analyst.password,
        address: "198.51.100.23",
        allowDemoAccounts: false,
      });
      expect(ok.status).toBe("ok");
      const wrong = `${context.analyst.password}-typo`;
      context.typedPasswords.push(wrong);
      const refused = await attemptPasswordSignIn(db, {
        email: context.analyst.email,
        password: wrong,
        address: "198.51.100.23",
        allowDemoAccounts: false,
      });
      expect(refused.status).toBe("invalid");
      // A password typed into the email box by mistake: a classic way for a password to reach a log or a table.
      const misplaced = `${context.admin.password} (in the email box)`;
      context.typedPasswords.push(misplaced);
      const confused = await attemptPasswordSignIn(db, {
        email: misplaced,
        password: "whatever",
        address: "198.51.100.23",
        allowDemoAccounts: false,
      });
      expect(confused.status).toBe("invalid");
    },
  },
  {
    name: "verifications",
    async run(context) {
      const analyst = context.analyst.cookie;
      const list = await call(context, "verifications", "list", listVerifications, "/api/verifications?status=approved&per_page=5", {
        cookie: analyst,
      });
      expect(list.response.status).toBe(200);
      const items = (JSON.parse(list.text!) as { items: Array<{ publicId: string }> }).items;
      const publicId = items[0]!.publicId;
      context.state.publicId = publicId;
      expect(
        (
          await call(context, "verifications", "detail", detail, `/api/verifications/${publicId}`, {
            cookie: analyst,
            params: { publicId },
          })
        ).response.status,
      ).toBe(200);
      const described = await call(context, "verifications", "media", media, `/api/verifications/${publicId}/media`, {
        cookie: analyst,
        params: { publicId },
      });
      expect(described.response.status).toBe(200);
      const sources = (JSON.parse(described.text!) as { items: Array<{ available: boolean; src?: string }> }).items.flatMap((item) =>
        item.available && item.src ? [item.src] : [],
      );
      expect(sources.length).toBeGreaterThan(0);
      for (const src of sources) {
        const token = decodeURIComponent(src.replace(/^\/api\/media\//, ""));
        const picture = await call(context, "verifications", "image", image, src, { cookie: analyst, params: { token } });
        expect(picture.response.status).toBe(200);
      }
      const created = await call(context, "verifications", "create", createVerification, "/api/verifications", {
        method: "POST",
        cookie: analyst,
        body: { schemaVersion: "1", refId: "leak-guard-1", document: { type: "cpf", number: context.cpfs.verification } },
      });
      expect(created.response.status).toBe(201);
    },
  },
  {
    name: "integrations",
    async run(context) {
      const admin = context.admin.cookie;
      const created = await call(context, "integrations", "create", createKey, "/api/integrations", {
        method: "POST",
        cookie: admin,
        body: { domain: "https://loja.example.com.br", label: "Leak guard shop" },
      });
      expect(created.response.status).toBe(201);
      const upstreamId = (JSON.parse(created.text!) as { integration: { upstreamId: number } }).integration.upstreamId;
      const reveal = cookieFrom(created.response, "kyc_integration_reveal");
      expect(reveal).toBeDefined();
      expect((await call(context, "integrations", "list", listKeys, "/api/integrations", { cookie: admin })).response.status).toBe(200);
      const again = await call(context, "integrations", "reveal", revealKey, "/api/integrations/reveal", {
        method: "POST",
        cookie: `${admin}; ${reveal}`,
        body: { upstreamId },
      });
      expect(again.response.status).toBe(200);
      expect(
        (
          await call(context, "integrations", "forget", forgetKey, "/api/integrations/reveal", {
            method: "DELETE",
            cookie: `${admin}; ${reveal}`,
            body: { upstreamId },
          })
        ).response.status,
      ).toBeLessThan(300);
    },
  },
  {
    name: "lookups",
    async run(context) {
      for (const source of ["receita", "history"] as const) {
        const answer = await call(context, "lookups", `lookup (${source})`, lookupCpf, "/api/lookups/cpf", {
          method: "POST",
          cookie: context.analyst.cookie,
          body: { cpf: context.cpfs.lookup, source, purpose: "Customer onboarding check" },
        });
        expect(answer.response.status).toBe(200);
      }
    },
  },
  {
    name: "kyc",
    async run(context) {
      const started = await call(context, "kyc", "start session", kycSession, "/api/kyc/sessions", {
        method: "POST",
        cookie: context.analyst.cookie,
        body: { cpf: context.cpfs.kyc, purpose: "Leak guard onboarding" },
      });
      expect(started.response.status).toBe(201);
    },
  },
  {
    name: "sms",
    async run(context) {
      const phone = context.phone;
      const sent = await call(context, "sms", "send", smsSend, "/api/sms/send", {
        method: "POST",
        cookie: context.analyst.cookie,
        body: { phone },
      });
      expect(sent.response.status).toBe(200);
      const code = await context.h.sandbox.smsCode(phone.replace(/\D/g, ""));
      expect(code).toMatch(/^\d{6}$/);
      const checked = await call(context, "sms", "validate", smsValidate, "/api/sms/validate", {
        method: "POST",
        cookie: context.analyst.cookie,
        body: { phone, code },
      });
      expect(checked.response.status).toBe(200);
    },
  },
  {
    name: "audit",
    async run(context) {
      const admin = context.admin.cookie;
      expect((await call(context, "audit", "list", auditGet, "/api/audit?limit=200", { cookie: admin })).response.status).toBe(200);
      const search = await call(context, "audit", "CPF search", auditGet, "/api/audit", {
        cookie: admin,
        headers: { "x-search-cpf": context.cpfs.lookup },
      });
      expect(search.response.status).toBe(200);
      expect(JSON.parse(search.text!).events.length).toBeGreaterThan(0);
      const csv = await call(context, "audit", "export", auditGet, "/api/audit?format=csv", { cookie: admin });
      expect(csv.response.status).toBe(200);
      expect(csv.text!.split("\r\n").length).toBeGreaterThan(10);
    },
  },
  {
    name: "failures",
    async run(context) {
      // Upstream failures are where bodies and URLs get logged by mistake: a truncated files answer (it
      // holds signed URLs), an upstream 500 and a refused bearer token on a lookup.
      const publicId = context.state.publicId as string;
      const sandbox = context.h.sandbox;
      await sandbox.setFaults({ path_prefix: `/core/public/validations-persons/${publicId}/files`, malformed_rate: 1 });
      const broken = await call(context, "failures", "media, truncated upstream answer", media, `/api/verifications/${publicId}/media`, {
        cookie: context.analyst.cookie,
        params: { publicId },
      });
      expect(broken.response.status).toBeGreaterThanOrEqual(500);
      await sandbox.clearFaults();
      // The lookup with the federal revenue service failing with `status`; the dashboard answers at least `least`.
      for (const [status, what, least] of [
        [500, "lookup, upstream 500", 500],
        [401, "lookup, token refused", 400],
      ] as const) {
        await sandbox.setFaults({ path_prefix: "/partners/receita-federal", error_rate: 1, status });
        const failed = await call(context, "failures", what, lookupCpf, "/api/lookups/cpf", {
          method: "POST",
          cookie: context.analyst.cookie,
          body: { cpf: context.cpfs.lookup, source: "receita", purpose: "Customer onboarding check" },
        });
        expect(failed.response.status, what).toBeGreaterThanOrEqual(least);
      }
      await sandbox.clearFaults();
    },
  },
  {
    name: "health",
    async run(context) {
      const handler: Handler = (request) => health(new NextRequest(request));
      expect((await call(context, "health", "readiness", handler, "/api/health?ready")).response.status).toBeLessThan(600);
    },
  },
];
