import { afterAll, beforeAll, expect, it } from "vitest";

import { config } from "@/lib/config";
import { describeEachDatabase } from "@/test/db";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { FLOWS, signedInPerson, type FlowContext } from "./flows";
import { placesOf, startLeakHarness, type LeakHarness, type Place } from "./harness";
import { startRecordingProxy, type RecordingProxy } from "./recording-proxy";
import { describeLeaks, findLeaks, harvestSecrets, type Secret, type SecretKind } from "./secrets";

/*
 * The leak guard. Runs the main flows (sign-in, verification list, detail, images, creation, key
 * creation and reveal, CPF lookups, KYC, SMS, the audit log and its export, upstream failures) through
 * the route handlers against a real sandbox, then searches every answer the browser would have
 * received, everything the server printed, and every row of every table for: the API key, the partner
 * password, staff passwords, bearer tokens, the integration token, integration key values, signed file
 * URLs, widget tokens and full CPFs. Each hit names the secret's kind, where it came from and where it was
 * found. Runs on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 *
 * Why route handlers rather than a browser: the guard must read the database and the server's output
 * of the very run, which a separately started server (PGlite allows one process) would keep to itself.
 * e2e/client-bundle.spec.ts covers the built client bundle and the pages' HTML.
 */

const EVERY_KIND: SecretKind[] = [
  "API key",
  "partner password",
  "staff password",
  "bearer token",
  "integration token",
  "integration key value",
  "signed file URL",
  "widget token",
  "full CPF",
];

let sandbox: SandboxHandle;
let proxy: RecordingProxy;
beforeAll(async () => {
  sandbox = await startSandbox();
  proxy = await startRecordingProxy(sandbox.url);
});
afterAll(async () => {
  await proxy?.stop();
  await sandbox?.stop();
});

describeEachDatabase("leak guard on $name", (kind) => {
  let h: LeakHarness;
  let context: FlowContext;
  const failures: string[] = [];
  let secrets: Secret[] = [];
  let places: Place[] = [];

  beforeAll(async () => {
    h = await startLeakHarness(kind, sandbox, proxy);
    const typedPasswords = ["Leak-guard analyst passphrase 1", "Leak-guard admin passphrase 2"];
    context = {
      h,
      analyst: await signedInPerson(h, "analyst", typedPasswords[0]!),
      admin: await signedInPerson(h, "admin", typedPasswords[1]!),
      cpfs: { lookup: "52998224725", kyc: "39053344705", verification: "11144477735" },
      // One phone per run: the sandbox refuses a second code to a phone within 30 s.
      phone: kind.name === "pglite" ? "+55 11 91234-5678" : "+55 21 98765-4321",
      typedPasswords,
      state: {},
    };
    for (const flow of FLOWS) {
      try {
        await flow.run(context);
      } catch (error) {
        failures.push(`${flow.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    h.stopCapture();
    const { core, partners } = config();
    secrets = harvestSecrets(h.upstream, {
      apiKey: core.apiKey,
      partnerPassword: partners.password,
      integrationToken: partners.integrationToken,
      staffPasswords: context.typedPasswords,
      cpfs: Object.values(context.cpfs),
    });
    places = await placesOf(h);
  }, 180_000);
  afterAll(async () => {
    await h?.dispose();
  });

  it("ran every flow", () => {
    expect(failures).toEqual([]);
  });

  it("had something of every kind to look for (else it would check nothing)", () => {
    const found = new Set(secrets.map((secret) => secret.kind));
    expect(EVERY_KIND.filter((secretKind) => !found.has(secretKind))).toEqual([]);
    expect(places.filter((place) => place.kind === "response").length).toBeGreaterThan(15);
    expect(places.filter((place) => place.kind === "log").length).toBeGreaterThan(10);
    expect(places.filter((place) => place.kind === "database").length).toBeGreaterThan(20);
  });

  it("finds no secret in any answer, the server's output or the database", () => {
    const leaks = findLeaks(secrets, places);
    if (process.env.LEAK_GUARD_DEBUG) {
      console.log(secrets.map((secret) => `${secret.kind} ← ${secret.source} (${secret.value.slice(0, 6)}…)`).join("\n"));
      console.log(places.map((place) => place.where).join("\n"));
    }
    expect(leaks, `secrets where they must not be:\n${describeLeaks(leaks)}`).toEqual([]);
  });
});
