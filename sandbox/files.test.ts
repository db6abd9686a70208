import { inflateSync } from "node:zlib";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startSandbox, type SandboxHandle } from "../test/sandbox";
import { core, listAll, type Verification } from "./test-support";

type FilesAnswer = Record<
  "selfie" | "document_back" | "document_front",
  { url: string; expires_in: number; file: { public_id: string; type: string } } | null
>;

let sandbox: SandboxHandle;
let approved: Verification[];

const filesOf = async (id: string) =>
  (await (await core(sandbox.url, `/public/validations-persons/${id}/files`, "sbx_core_view_media")).json()) as FilesAnswer;

/** Width, height and decoded pixel bytes of an 8-bit RGB PNG (what images.ts writes). */
function decodePng(bytes: Buffer): { width: number; height: number; pixels: Buffer } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("ascii", offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    }
    if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  return { width, height, pixels: inflateSync(Buffer.concat(idat)) };
}

beforeAll(async () => {
  sandbox = await startSandbox();
  approved = await listAll(sandbox.url, "sbx_core_view", "status=approved");
});

afterAll(async () => {
  await sandbox?.stop();
});

describe("signed files", () => {
  it("open a real PNG per picture: selfie, front and back differ, and differ between people", async () => {
    const first = await filesOf(approved[0]!.public_id);
    const second = await filesOf(approved[1]!.public_id);
    const pictures: Buffer[] = [];
    for (const entry of [first.selfie, first.document_front, first.document_back, second.selfie]) {
      const response = await fetch(entry!.url);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      const png = decodePng(Buffer.from(await response.arrayBuffer()));
      expect([png.width, png.height]).toEqual([240, 300]);
      expect(png.pixels.length).toBe(300 * (1 + 240 * 3));
      pictures.push(png.pixels);
    }
    expect(new Set(pictures.map((p) => p.toString("base64"))).size).toBe(4);
    // Deterministic: the same picture twice is the same bytes.
    const again = Buffer.from(await (await fetch(first.selfie!.url)).arrayBuffer());
    expect(decodePng(again).pixels.equals(pictures[0]!)).toBe(true);
  });

  it("one URL opens one file only; tampering is refused with 403 text/plain", async () => {
    const files = await filesOf(approved[2]!.public_id);
    const selfie = new URL(files.selfie!.url);
    const front = new URL(files.document_front!.url);

    const swapped = new URL(selfie);
    swapped.pathname = front.pathname;
    const signature = selfie.searchParams.get("signature")!;
    const flipped = new URL(selfie);
    flipped.searchParams.set("signature", `${signature.slice(0, -1)}${signature.endsWith("a") ? "b" : "a"}`);
    const later = new URL(selfie);
    later.searchParams.set("expires", String(Number(selfie.searchParams.get("expires")) + 1));
    const extra = new URL(selfie);
    extra.searchParams.set("download", "1");
    const bare = new URL(selfie);
    bare.search = "";

    for (const url of [swapped, flipped, later, extra, bare]) {
      const response = await fetch(url);
      expect(response.status, url.search).toBe(403);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    }
    expect((await fetch(selfie)).status).toBe(200);
  });

  it("expire after 300 s on the sandbox clock", async () => {
    const files = await filesOf(approved[3]!.public_id);
    const url = files.document_back!.url;
    expect(files.document_back!.expires_in).toBe(300);
    await sandbox.advanceClock(299);
    expect((await fetch(url)).status).toBe(200);
    await sandbox.advanceClock(2);
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(expired.headers.get("content-type")).toMatch(/^text\/plain/);
    await sandbox.resetClock();
    expect((await fetch(url)).status).toBe(200);
  });

  it("are never printed on the console nor kept with their signature in the request log", async () => {
    const files = await filesOf(approved[4]!.public_id);
    await fetch(files.selfie!.url);
    const signature = new URL(files.selfie!.url).searchParams.get("signature")!;
    expect(sandbox.output()).not.toContain(signature);
    expect(sandbox.output()).not.toContain("/files/");
    const logged = JSON.stringify(await sandbox.requests());
    expect(logged).not.toContain(signature);
    const entry = (await sandbox.requests()).find((request) => request.path.startsWith("/files/"))!;
    expect(entry.query.sort()).toEqual(["expires", "signature"]);
  });
});
