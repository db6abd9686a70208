import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { singleKeyRing } from "@/lib/keys/ring";
import { setLogSink } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";
import { testConfig, testCoreClient } from "@/test/verifications";

import { listVerifications } from "./list";
import { isDisplayableImageType, issueMediaTokens, MediaTokenRefused, openImage } from "./media";
import { MAX_MEDIA_TOKEN_LENGTH, openMediaToken, sealMediaToken } from "./media-token";

/*
 * The image fetch's guards, with the service's files operation real (sandbox) and the signed-URL fetch
 * replaced so each misbehaviour can be staged: a redirect, a non-image, an oversized body.
 */

let sandbox: SandboxHandle;
let deps: ReturnType<typeof makeDeps>;
let token: string;
// The approved verification whose selfie `token` opens.
let publicId: string;
const user = { id: "user-1", permissions: ["media.read" as const] };

function makeDeps() {
  const cfg = testConfig(sandbox.url);
  return { cfg, client: testCoreClient(cfg) };
}

beforeAll(async () => {
  setLogSink(() => undefined);
  sandbox = await startSandbox();
  deps = makeDeps();
  const list = await listVerifications({ status: ["approved"], per_page: 1 }, deps);
  const media = await issueMediaTokens(list.items[0]!.publicId, user, deps);
  const selfie = media.items.find((item) => item.key === "selfie");
  if (!selfie?.available) throw new Error("expected a selfie");
  token = decodeURIComponent(selfie.src.slice("/api/media/".length));
  publicId = media.publicId;
});
afterAll(async () => {
  setLogSink(undefined);
  await sandbox?.stop();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("openImage", () => {
  it("opens the signed URL without following redirects", async () => {
    const fetchStub = vi.fn(async () => new Response(null, { status: 302, headers: { location: "http://example.com/elsewhere.png" } }));
    const error = await failure(openImage(token, user, { ...deps, fetch: fetchStub }));
    expect(error).toBeInstanceOf(AppError);
    expect(fetchStub).toHaveBeenCalledTimes(1);
    const [url, init] = fetchStub.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain("/files/");
    expect(init.redirect).toBe("manual");
  });

  it("streams only image types, never SVG", async () => {
    for (const type of ["text/html", "application/octet-stream", "image/svg+xml", ""]) {
      const fetchStub = async () => new Response("<svg/>", { status: 200, headers: type ? { "content-type": type } : {} });
      const error = await failure(openImage(token, user, { ...deps, fetch: fetchStub }));
      expect(error).toBeInstanceOf(AppError);
    }
    expect(isDisplayableImageType("image/png")).toBe(true);
    expect(isDisplayableImageType("image/jpeg")).toBe(true);
  });

  it("refuses a declared size over the cap, and cuts an undeclared one at the cap", async () => {
    const big = async () =>
      new Response("x", { status: 200, headers: { "content-type": "image/png", "content-length": String(11 * 1024 * 1024) } });
    const declared = await failure(openImage(token, user, { ...deps, fetch: big }));
    expect(declared).toMatchObject({ code: "payload_too_large" });

    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 10; index++) controller.enqueue(new Uint8Array(500));
        controller.close();
      },
    });
    const undeclared = async () => new Response(chunks, { status: 200, headers: { "content-type": "image/png" } });
    const opened = await openImage(token, user, { ...deps, fetch: undeclared, maxBytes: 2000 });
    await expect(new Response(opened.body).arrayBuffer()).rejects.toThrow();
  });

  it("streams the real image through", async () => {
    const opened = await openImage(token, user, deps);
    expect(opened.contentType).toBe("image/png");
    expect(opened.claim.fileKey).toBe("selfie");
    const bytes = new Uint8Array(await new Response(opened.body).arrayBuffer());
    expect(bytes.byteLength).toBeGreaterThan(100);
  });

  it("opens the signed URL the token carries: a picture costs the service no files call", async () => {
    let calls = 0;
    const counting = {
      getVerificationFiles: async (publicId: string) => {
        calls += 1;
        return deps.client.getVerificationFiles(publicId);
      },
    } as typeof deps.client;
    const opened = await openImage(token, user, { ...deps, client: counting });
    expect(new Uint8Array(await new Response(opened.body).arrayBuffer()).byteLength).toBeGreaterThan(100);
    expect(calls).toBe(0);
    // The claim handed on (to the audit event) holds no URL.
    expect(JSON.stringify(opened.claim)).not.toMatch(/https?:|\/files\//);
  });

  it("a signed URL too long for a token is left out of it: the token stays openable and the route asks afresh", async () => {
    const [entry] = await deps.client.getVerificationFiles(publicId);
    const longUrl = `${entry!.file!.url}${entry!.file!.url.includes("?") ? "&" : "?"}pad=${"x".repeat(5000)}`;
    const long = {
      getVerificationFiles: async () => [{ key: "selfie", file: { ...entry!.file!, url: longUrl, type: "image/png" } }],
    } as unknown as typeof deps.client;
    const media = await issueMediaTokens(publicId, user, { ...deps, client: long });
    const item = media.items[0]!;
    if (!item.available) throw new Error("expected an available selfie");
    const sealed = decodeURIComponent(item.src.slice("/api/media/".length));
    expect(sealed.length).toBeLessThanOrEqual(MAX_MEDIA_TOKEN_LENGTH);
    expect(await openMediaToken(sealed, user.id, deps.cfg.secrets.mediaSeal)).not.toHaveProperty("fileUrl");
  });

  it("a token without a URL (sealed before tokens carried one): images asked for at once share one files call; a later one asks afresh", async () => {
    const { fileUrl: _url, ...claim } = await openMediaToken(token, user.id, deps.cfg.secrets.mediaSeal);
    const legacy = await sealMediaToken(claim, deps.cfg.secrets.mediaSeal);
    let calls = 0;
    // "At once": the files call answers only once all three requests have opened their token (each opens it on its
    // own, and how long that takes varies with the machine's load), so each has arrived while the call is in flight.
    let arrived = 0;
    let allArrived!: () => void;
    const gate = new Promise<void>((resolve) => (allArrived = resolve));
    const onValidToken = async () => {
      arrived += 1;
      if (arrived === 3) allArrived();
    };
    const counting = {
      getVerificationFiles: async (publicId: string) => {
        calls += 1;
        await gate;
        return deps.client.getVerificationFiles(publicId);
      },
    } as typeof deps.client;
    const image = async () => new Response(new Uint8Array(8), { status: 200, headers: { "content-type": "image/png" } });
    const open = () => openImage(legacy, user, { ...deps, client: counting, fetch: image, onValidToken });
    const together = await Promise.all([1, 2, 3].map(open));
    expect(together.map((opened) => opened.contentType)).toEqual(["image/png", "image/png", "image/png"]);
    expect(calls).toBe(1);
    await open();
    expect(calls).toBe(2);
  });

  it("refuses the token of another user and a token sealed with another secret", async () => {
    expect(await failure(openImage(token, { id: "user-2" }, deps))).toMatchObject({ problem: "foreign" });
    const otherSecret = { ...deps, cfg: { ...deps.cfg, secrets: { ...deps.cfg.secrets, mediaSeal: singleKeyRing("o".repeat(40)) } } };
    const error = await failure(openImage(token, user, otherSecret));
    expect(error).toBeInstanceOf(MediaTokenRefused);
    expect(error).toMatchObject({ problem: "invalid" });
  });
});

describe("a rotation of MEDIA_SEAL_SECRET", () => {
  it("keeps a token sealed under the old key until that key is retired, then refuses it (403); new tokens use the new key", async () => {
    const rotatedDeps = (ring: string) => {
      const cfg = testConfig(sandbox.url, { MEDIA_SEAL_SECRET: ring });
      return { cfg, client: testCoreClient(cfg) };
    };
    const newer = "r".repeat(40);
    // `token` was sealed under the plain MEDIA_SEAL_SECRET, which the ring keeps as key "1".
    const rotated = rotatedDeps(`2026-11-28T1943:${newer},1:${"m".repeat(40)}`);
    const opened = await openImage(token, user, rotated);
    expect(opened.claim.fileKey).toBe("selfie");
    await opened.body.cancel();

    const media = await issueMediaTokens(opened.claim.publicId, user, rotated);
    const selfie = media.items.find((item) => item.key === "selfie");
    const fresh = decodeURIComponent(selfie!.available ? selfie!.src.slice("/api/media/".length) : "");
    const retired = rotatedDeps(`2026-11-28T1943:${newer}`);
    const error = await failure(openImage(token, user, retired));
    expect(error).toBeInstanceOf(MediaTokenRefused);
    expect(httpStatusOf(error as MediaTokenRefused)).toBe(403);
    // The fresh token opens under the new key alone, and not under the old one alone.
    await (await openImage(fresh, user, retired)).body.cancel();
    expect(await failure(openImage(fresh, user, deps))).toMatchObject({ problem: "invalid" });
  });
});

describe("without media.read", () => {
  it("issues no media token, asking the service nothing", async () => {
    await sandbox.clearRequests();
    const list = await listVerifications({ status: ["approved"], per_page: 1 }, deps);
    await sandbox.clearRequests();
    const error = await failure(issueMediaTokens(list.items[0]!.publicId, { id: "user-1", permissions: ["verifications.read"] }, deps));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("forbidden");
    expect(await sandbox.requests()).toEqual([]);
  });
});
