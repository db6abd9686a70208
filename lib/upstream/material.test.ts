import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fromUpstreamError, httpStatusOf } from "@/lib/api/errors";
import { SANDBOX_DEFAULTS } from "@/lib/config";
import { AppError } from "@/lib/shared/errors";
import { CoreClient } from "@/lib/upstream/core";
import { createdVerificationWire, reshapeCreatedVerification } from "@/lib/upstream/core-validation";
import { parseErrorBody } from "@/lib/upstream/error-body";
import { UpstreamError } from "@/lib/upstream/errors";
import { VERIFICATION_STATUSES } from "@/lib/upstream/model/verification";
import { createVerification } from "@/lib/verifications/server/create";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

/*
 * The facts adopted from the provider's public material (docs/assumptions.md, each entry's source): its example
 * bodies, written here with our own values, parsed through the clients' schemas; then each fact held against
 * the sandbox over real HTTP with the real client.
 */

describe("the material's example bodies parse through the clients' schemas", () => {
  it("creation answer {verification, entry} (legitimuz-examples pocs/express-backend, pocs/resume-expiry)", () => {
    const body = {
      verification: {
        public_id: "0f0e0d0c-1111-4222-8333-444455556666",
        ref_id: "pedido-1234",
        status: "not_opened",
        expires_at: "2026-12-01T15:00:00Z",
      },
      entry: { kind: "web", url: "https://verify.example.test/v/abc?lang=pt-BR" },
    };
    const created = reshapeCreatedVerification(createdVerificationWire.parse(body), false);
    expect(created).toEqual({
      publicId: "0f0e0d0c-1111-4222-8333-444455556666",
      refId: "pedido-1234",
      status: "not_opened",
      expiresAt: "2026-12-01T15:00:00Z",
      entryKind: "web",
      replayed: false,
      extra: {},
    });
    // The entry's address is the flow's credential: it is not carried anywhere in the domain object.
    expect(JSON.stringify(created)).not.toContain("verify.example.test");
  });

  it("a flat creation answer and an empty one stay readable", () => {
    expect(reshapeCreatedVerification(createdVerificationWire.parse({ public_id: "p-1", status: "started" }), true)).toMatchObject({
      publicId: "p-1",
      status: "started",
      replayed: true,
    });
    expect(reshapeCreatedVerification(createdVerificationWire.parse(undefined))).toEqual({ replayed: false, extra: {} });
  });

  it("error envelope {error: {code, message}} (core-documentation api/verifications.mdx)", () => {
    const parsed = parseErrorBody(
      JSON.stringify({ error: { code: "E_REF_ID_CONFLICT", message: "ref_id já usado com payload diferente" } }),
    );
    expect(parsed).toMatchObject({ code: "E_REF_ID_CONFLICT", message: "ref_id já usado com payload diferente" });
  });

  it("the closed status set is the five of api/verification-statuses.mdx", () => {
    expect([...VERIFICATION_STATUSES].sort()).toEqual(["approved", "not_opened", "reproved", "review", "started"]);
  });
});

describe("adopted facts against the sandbox", () => {
  let sandbox: SandboxHandle;
  let client: CoreClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ SANDBOX_VERIFICATIONS: "50" });
    client = new CoreClient({ baseUrl: `${sandbox.url}/core`, apiKey: SANDBOX_DEFAULTS.coreApiKey, retryBaseDelayMs: 10 });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  const input = (refId: string, number = "529.982.247-25") => ({ schemaVersion: "1.0", refId, document: { type: "cpf", number } });

  it("creation answers the public id and the expiry; a repeat with the same body is the same verification, marked replayed", async () => {
    const refId = `material-${Date.now()}`;
    const first = await client.createVerification({ ...input(refId), flowPublicId: "kyc-faceindex" });
    expect(first).toMatchObject({ refId, status: "not_opened", entryKind: "web", replayed: false });
    expect(first.publicId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(first.expiresAt!)).toBeGreaterThan(Date.now());

    const again = await client.createVerification({ ...input(refId), flowPublicId: "kyc-faceindex" });
    expect(again).toMatchObject({ publicId: first.publicId, replayed: true });
    const fetched = await client.getVerification(first.publicId!);
    expect(fetched.flow).toBe("kyc-faceindex");
  });

  it("the same ref_id with another body is a 409 E_REF_ID_CONFLICT carrying the request id; the dashboard names the field", async () => {
    const refId = `material-conflict-${Date.now()}`;
    await client.createVerification(input(refId));
    const error = await client.createVerification(input(refId, "111.444.777-35")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 409, code: "E_REF_ID_CONFLICT" });
    expect((error as UpstreamError).requestId).toMatch(/^req_/);

    const shown = await createVerification(
      { schemaVersion: "1.0", refId, document: { type: "cpf", number: "111.444.777-35" } },
      { client },
    ).catch((e: unknown) => e);
    expect(shown).toBeInstanceOf(AppError);
    expect(shown).toMatchObject({ code: "conflict", fields: ["refId"] });
    expect(httpStatusOf(shown as AppError)).toBe(409);
    expect((shown as AppError).requestId).toMatch(/^req_/);
  });

  it("every upstream error carries the service's request id through to the dashboard's error body", async () => {
    const error = await client.getVerification("00000000-0000-4000-8000-000000000000").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    const mapped = fromUpstreamError(error as UpstreamError);
    expect(mapped.code).toBe("not_found");
    expect(mapped.requestId).toBe((error as UpstreamError).requestId);
    expect(mapped.requestId).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it("decided_at is present on approved and reproved only", async () => {
    const { items } = await client.listVerifications({ per_page: 50 });
    expect(items.length).toBeGreaterThan(10);
    for (const item of items)
      expect(item.decidedAt !== undefined, item.status).toBe(item.status === "approved" || item.status === "reproved");
  });
});
