import { describe, expect, it } from "vitest";

import { parseDateBound } from "./core";
import { cpfForIndex, formatCpf, indexForCpf, maskCpf, validCpf } from "./fixtures/cpf";
import { personFromCpf } from "./fixtures/people";
import { permute32, unpermute32 } from "./fixtures/prng";
import { generateDataset, indexOfPublicId, materialize, publicIdOf, type DatasetSpec } from "./fixtures/verifications";
import { ipInCidr, parseMultipart } from "./http";
import { normalizeHost } from "./partners-auth";

const spec: DatasetSpec = { index: 0, integration: "int_main", environment: "sandbox", size: 2000, cpfStart: 0 };
const NOW = Date.UTC(2026, 10, 23, 12);

describe("CPF", () => {
  it("validates check digits and shapes", () => {
    for (const cpf of ["529.982.247-25", "11144477735", "390.533.447-05", "123.456.789-09"]) expect(validCpf(cpf)).toMatch(/^\d{11}$/);
    for (const cpf of ["529.982.247-26", "111.111.111-11", "5299822472", "529 982 247 25", "529.98224725"])
      expect(validCpf(cpf)).toBeNull();
    expect(formatCpf("12345678909")).toBe("123.456.789-09");
    expect(maskCpf("12345678909")).toBe("***.456.789-**");
  });

  it("generates distinct valid CPFs, and finds an index back from its CPF", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(cpfForIndex(987_654_321, i));
    expect(seen.size).toBe(100_000);
    for (const cpf of [...seen].slice(0, 500)) expect(validCpf(cpf)).toBe(cpf);
    expect(indexForCpf(987_654_321, cpfForIndex(987_654_321, 4242))).toBe(4242);
    expect(indexForCpf(987_654_321, "52998224725")).not.toBe(0);
  });
});

describe("ids", () => {
  it("permute32 is a bijection with an inverse", () => {
    for (let i = 0; i < 10_000; i++) {
      const value = (i * 2654435761) >>> 0;
      expect(unpermute32(permute32(value))).toBe(value);
    }
  });

  it("public ids are v4-shaped, distinct, and decode to their index", () => {
    const dataset = generateDataset(3, spec, NOW);
    const ids = Array.from({ length: spec.size }, (_, i) => publicIdOf(dataset, i));
    expect(new Set(ids).size).toBe(spec.size);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(indexOfPublicId(dataset, id)).toBe(i);
    }
    expect(indexOfPublicId(dataset, `${ids[5]!.slice(0, -1)}${ids[5]!.endsWith("0") ? "1" : "0"}`)).toBe(-1);
    expect(indexOfPublicId(generateDataset(4, spec, NOW), ids[5]!)).toBe(-1);
  });
});

describe("generation", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const a = generateDataset(1, spec, NOW);
    const b = generateDataset(1, spec, NOW);
    const c = generateDataset(2, spec, NOW);
    expect(materialize(a, 17)).toEqual(materialize(b, 17));
    expect(Buffer.from(a.status)).toEqual(Buffer.from(b.status));
    expect(publicIdOf(a, 0)).not.toBe(publicIdOf(c, 0));
    expect(materialize(a, 17).cpf).not.toBe(materialize(c, 17).cpf);
  });

  it("keeps dates within the last 90 days, newest first", () => {
    const dataset = generateDataset(1, spec, NOW);
    for (let i = 1; i < spec.size; i++) expect(dataset.createdAt[i]!).toBeLessThanOrEqual(dataset.createdAt[i - 1]!);
    expect(dataset.createdAt[0]!).toBeLessThanOrEqual(NOW);
    expect(dataset.createdAt[spec.size - 1]!).toBeGreaterThanOrEqual(NOW - 90 * 86_400_000);
  });

  it("derives the person from the CPF only, with the seeded special people", () => {
    expect(personFromCpf("52998224725")).toEqual(personFromCpf("52998224725"));
    expect(personFromCpf("11144477735")).toMatchObject({ deceased: true, deathYear: 2021 });
    expect(personFromCpf("39053344705")).toMatchObject({ pep: true, pepOrigin: expect.any(String) });
    expect(personFromCpf("12345678909").sparse).toBe(true);
    const someone = personFromCpf(cpfForIndex(1, 1));
    expect(someone.name.split(" ").length).toBeGreaterThanOrEqual(2);
    expect(someone.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("helpers", () => {
  it("parses multipart/form-data as fetch sends it, and refuses a broken body", async () => {
    const data = new FormData();
    data.set("username", "backoffice");
    data.set("note", "línea 1\r\nlínea 2");
    data.set("file", new Blob([Buffer.from([1, 2, 3])], { type: "image/png" }), "a.png");
    const request = new Request("http://x/", { method: "POST", body: data });
    const body = Buffer.from(await request.arrayBuffer());
    const form = parseMultipart(body, request.headers.get("content-type")!);
    expect(form?.fields.get("username")).toBe("backoffice");
    expect(form?.fields.get("note")).toBe("línea 1\r\nlínea 2");
    expect(form?.files.get("file")?.data).toEqual(Buffer.from([1, 2, 3]));
    expect(parseMultipart(body.subarray(0, body.length - 20), request.headers.get("content-type")!)).toBeNull();
    expect(parseMultipart(body, "multipart/form-data")).toBeNull();
  });

  it("normalises domains to a lowercase host", () => {
    expect(normalizeHost("https://Example.com.br/path")).toBe("example.com.br");
    expect(normalizeHost("Example.com.br/path?x=1")).toBe("example.com.br");
    expect(normalizeHost("http://localhost:3000")).toBe("localhost");
    expect(normalizeHost("backoffice.sandbox.local.")).toBe("backoffice.sandbox.local");
    expect(normalizeHost("not a domain")).toBeNull();
    expect(normalizeHost("")).toBeNull();
  });

  it("reads dates as São Paulo days or ISO instants", () => {
    expect(parseDateBound("2026-10-01")).toEqual([Date.parse("2026-10-01T03:00:00Z"), Date.parse("2026-10-02T03:00:00Z")]);
    expect(parseDateBound("2026-10-01T10:00:00-03:00")![0]).toBe(Date.parse("2026-10-01T13:00:00Z"));
    for (const bad of ["yesterday", "2026-02-30", "2026-10-01T10:00:00", "1696118400"]) expect(parseDateBound(bad)).toBeNull();
  });

  it("matches IPv4 CIDR ranges", () => {
    expect(ipInCidr("203.0.113.7", "203.0.113.0/24")).toBe(true);
    expect(ipInCidr("127.0.0.1", "203.0.113.0/24")).toBe(false);
    expect(ipInCidr("::1", "203.0.113.0/24")).toBe(false);
  });
});
