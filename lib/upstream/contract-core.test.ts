import { describe, expect, it } from "vitest";
import { ZodError } from "zod";

import { loadConfig, SANDBOX_DEFAULTS } from "@/lib/config";
import { CoreClient } from "@/lib/upstream/core";
import { parseErrorBody } from "@/lib/upstream/error-body";
import { UpstreamForbiddenError } from "@/lib/upstream/errors";
import { PartnersClient } from "@/lib/upstream/partners";
import { thrown } from "@/test/rejection";
import {
  core,
  describeRedactionOverRealTraffic,
  LIST_PARAMS,
  received,
  sandbox,
  startContractSandbox,
  upstreamFailure,
  verificationWithFiles,
} from "@/test/upstream-contract";

/*
 * Contract tests: the real clients against the real sandbox (its own process, real HTTP). The sandbox is a
 * second implementation of the contract; where these pass, the clients and the contract agree.
 */

const lines = startContractSandbox();

describe("core: list", () => {
  it("filters by status, flow, dates and pages, sending only the allowed parameters", async () => {
    const today = new Date();
    const monthAgo = new Date(today.getTime() - 30 * 86_400_000);
    const filters = {
      status: ["approved", "review"],
      from: monthAgo.toISOString().slice(0, 10),
      to: today.toISOString().slice(0, 10),
      per_page: 5,
      page: 2,
    };
    const list = await core().listVerifications(filters);
    expect(list.pagination).toMatchObject({ page: 2, perPage: 5 });
    expect(list.items.length).toBeLessThanOrEqual(5);
    expect(list.items.length).toBeGreaterThan(0);
    for (const item of list.items) {
      expect(["approved", "review"]).toContain(item.status);
      if (item.createdAt) expect(new Date(item.createdAt).getTime()).toBeGreaterThan(monthAgo.getTime() - 86_400_000);
    }

    const flow = await core().listVerifications({ flow: "default", per_page: 20 });
    for (const item of flow.items) expect(item.flow).toBe("default");

    const requests = await received("/core/public/validations-persons");
    expect(requests).toHaveLength(2);
    for (const request of requests) for (const key of request.query) expect(LIST_PARAMS).toContain(key);
    expect(requests[0]!.query.sort()).toEqual(["from", "page", "per_page", "status", "to"]);
  });

  it("really answers an unknown parameter with 400 naming it, and the client never sends one", async () => {
    const raw = await fetch(`${sandbox().url}/core/public/validations-persons?sort=name`, {
      headers: { "X-API-Key": SANDBOX_DEFAULTS.coreApiKey },
    });
    expect(raw.status).toBe(400);
    const parsed = parseErrorBody(await raw.text());
    expect(parsed.code).toBe("E_VALIDATION_FAILURE");
    expect(parsed.fields).toContain("sort");

    await sandbox().clearRequests();
    // A key the client does not know is refused by name, not silently dropped, and nothing is sent.
    await expect(core().listVerifications({ status: "approved", sort: "name", token: "x" } as never)).rejects.toThrow(/sort.*token/);
    expect(await received("/core/public/validations-persons")).toEqual([]);
  });

  it("maps the sandbox's own 400 on a malformed value to a validation error naming the parameter", async () => {
    // per_page above the sandbox's maximum (100) passes the client's check when the client allows more.
    const loose = new CoreClient({ baseUrl: `${sandbox().url}/core`, apiKey: SANDBOX_DEFAULTS.coreApiKey, maxPerPage: 1000 });
    const error = await upstreamFailure(loose.listVerifications({ per_page: 500 }));
    expect(error.kind).toBe("validation");
    expect(error.code).toBe("E_VALIDATION_FAILURE");
    expect(error.fields).toContain("per_page");
  });
});

describe("core: keys, environments and permissions", () => {
  it("answers 404 to a production key for a sandbox verification, and to another integration's key", async () => {
    const { items } = await core().listVerifications({ per_page: 1 });
    const publicId = items[0]!.publicId;
    await expect(core().getVerification(publicId)).resolves.toMatchObject({ publicId });
    for (const key of ["sbx_core_production", "sbx_core_other_integration"]) {
      const error = await upstreamFailure(core(key).getVerification(publicId));
      expect(error.kind).toBe("not_found");
      expect(error.status).toBe(404);
    }
  });

  it("returns masked documents without the unmasked permission, and plain ones with it", async () => {
    const masked = await core("sbx_core_view_media").listVerifications({ per_page: 10 });
    for (const item of masked.items) {
      expect(item.documentMasked).toBe(true);
      expect(item.document).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    }
    const plain = await core("sbx_core_unmasked").listVerifications({ per_page: 10 });
    for (const item of plain.items) {
      expect(item.documentMasked).toBe(false);
      expect(item.document).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
    }
  });

  it("reads a 403 for an IP-restricted key as the allow-list, and a missing permission as a permission problem", async () => {
    const ip = await upstreamFailure(core("sbx_core_ip_restricted").listVerifications());
    expect(ip).toBeInstanceOf(UpstreamForbiddenError);
    expect((ip as UpstreamForbiddenError).reason).toBe("ip_not_allowed");

    const none = await upstreamFailure(core("sbx_core_none").listVerifications());
    expect((none as UpstreamForbiddenError).reason).toBe("permission");

    const { items } = await core().listVerifications({ per_page: 1 });
    const noMedia = await upstreamFailure(core("sbx_core_view").getVerificationFiles(items[0]!.publicId));
    expect(noMedia.kind).toBe("forbidden");
    expect((noMedia as UpstreamForbiddenError).reason).toBe("permission");
  });

  it("reports an unknown key as unauthorized", async () => {
    const error = await upstreamFailure(core("sbx_not_a_key").listVerifications());
    expect(error.kind).toBe("unauthorized");
  });
});

describe("core: files", () => {
  it("hands out signed URLs that open their file, refuse tampering, and expire after 300 s", async () => {
    const client = core();
    const { files } = await verificationWithFiles(client);
    expect(files.map((entry) => entry.key).slice(0, 1)).toEqual(["selfie"]);
    expect(files.map((entry) => entry.key)).toContain("document_back");
    const present = files.filter((entry) => entry.file !== null);
    const first = present[0]!.file!;
    expect(first.expiresAt.getTime() - Date.now()).toBeGreaterThan(290_000);
    expect(first.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(300_000);

    // The files route never gets a query string (it refuses even `?`).
    for (const request of await received("/core/public/validations-persons/")) expect(request.query).toEqual([]);

    const ok = await fetch(first.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe(first.type);
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const url = new URL(first.url);
    const signature = url.searchParams.get("signature")!;
    const tampered = new URL(url);
    tampered.searchParams.set("signature", `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
    expect((await fetch(tampered)).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    expect((await fetch(later)).status).toBe(403);
    if (present[1]) {
      // One URL opens one file: another file's path under this signature is refused.
      const other = new URL(present[1].file!.url);
      const swapped = new URL(url);
      swapped.pathname = other.pathname;
      expect((await fetch(swapped)).status).toBe(403);
    }

    await sandbox().advanceClock(301);
    expect((await fetch(first.url)).status).toBe(403);
  });

  it("never logs a signed URL", async () => {
    const { files } = await verificationWithFiles(core());
    const url = files.find((entry) => entry.file)!.file!.url;
    const signature = new URL(url).searchParams.get("signature")!;
    const logged = lines.join("\n");
    expect(logged).not.toContain(url);
    expect(logged).not.toContain(signature);
  });
});

describe("core: creation", () => {
  it("creates a verification that then appears, and never sends integration_origin_public_id", async () => {
    const input = {
      schemaVersion: "1.0",
      refId: `contract-${Date.now()}`,
      document: { type: "cpf", number: "52998224725" },
      integration_origin_public_id: "sneaky",
    };
    const created = await core().createVerification(input as never);
    expect(created.publicId).toBeTruthy();
    const fetched = await core().getVerification(created.publicId!);
    expect(fetched.publicId).toBe(created.publicId);

    // The sandbox does refuse the removed field (so the success above proves it was not sent).
    const raw = await fetch(`${sandbox().url}/core/public/verifications`, {
      method: "POST",
      headers: { "X-API-Key": SANDBOX_DEFAULTS.coreApiKey, "content-type": "application/json" },
      body: JSON.stringify({
        schema_version: "1.0",
        ref_id: "x",
        document: { type: "cpf", number: "52998224725" },
        integration_origin_public_id: "x",
      }),
    });
    expect(raw.status).toBe(400);
    expect(parseErrorBody(await raw.text()).code).toBe("E_VALIDATION_FAILURE");
  });

  it("works with the IP-restricted key (the allow-list covers read routes only)", async () => {
    const created = await core("sbx_core_ip_restricted").createVerification({
      schemaVersion: "1.0",
      refId: "ip",
      document: { type: "cpf", number: "52998224725" },
    });
    expect(created.publicId).toBeTruthy();
  });
});

describe("core: public ids never change the upstream path", () => {
  it.each(["../validations-persons", "a/b", "..", "%2F", "abc%2F..%2Ffiles", "abc/files", "a?x=1"])("%j", async (publicId) => {
    const client = core();
    expect(await thrown(client.getVerification(publicId))).toBeInstanceOf(ZodError);
    expect(await thrown(client.getVerificationFiles(publicId))).toBeInstanceOf(ZodError);
    expect(await received("/core")).toEqual([]);
  });
});

describe("core: faults", () => {
  it("retries a GET through 503s, then reports unavailable; never retries the POST", async () => {
    await sandbox().setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    const error = await upstreamFailure(core(undefined, { readRetries: 2 }).listVerifications());
    expect(error.kind).toBe("unavailable");
    expect(await received("/core/public/validations-persons")).toHaveLength(3);

    await sandbox().clearRequests();
    const post = await upstreamFailure(
      core(undefined, { readRetries: 2 }).createVerification({
        schemaVersion: "1",
        refId: "r",
        document: { type: "cpf", number: "52998224725" },
      }),
    );
    expect(post.kind).toBe("unavailable");
    expect(await received("/core/public/verifications")).toHaveLength(1);
  });

  it("reports truncated JSON as malformed and a held connection as a timeout", async () => {
    await sandbox().setFaults({ path_prefix: "/core", malformed_rate: 1 });
    expect((await upstreamFailure(core(undefined, { readRetries: 0 }).listVerifications())).kind).toBe("malformed");

    await sandbox().setFaults({ path_prefix: "/core", timeout_rate: 1 });
    const started = performance.now();
    const timeout = await upstreamFailure(core(undefined, { readRetries: 0, timeoutMs: 300 }).listVerifications());
    expect(timeout.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("core: configuration", () => {
  it("builds a working client from config() values in embedded mode", async () => {
    const secret = "x".repeat(40);
    const cfg = loadConfig({ SANDBOX_URL: sandbox().url, NEXTAUTH_SECRET: secret, MEDIA_SEAL_SECRET: secret, AUDIT_HASH_SECRET: secret });
    const list = await CoreClient.fromConfig(cfg).listVerifications({ per_page: 1 });
    expect(list.items).toHaveLength(1);
    const record = await PartnersClient.fromConfig(cfg).cpfHistory("529.982.247-25");
    expect(record.cpf).toBe("52998224725");
  });
});

describeRedactionOverRealTraffic(lines);
