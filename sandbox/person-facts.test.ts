/* Facts about a person set after their verification (POST /sandbox/people/{cpf}/facts, person-facts.ts). */
import { describe, expect, it } from "vitest";

import { withSandbox } from "../test/sandbox";
import { core, login, MAIN, type Verification } from "./test-support";

const sandbox = withSandbox();

describe("facts about a person (POST /sandbox/people/{cpf}/facts)", () => {
  const facts = (cpf: string, body: unknown) =>
    fetch(`${sandbox.url}/sandbox/people/${cpf}/facts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const history = async (cpf: string) => {
    const bearer = await login(sandbox.url);
    const query = new URLSearchParams({ token: MAIN.token, cpf });
    const response = await fetch(`${sandbox.url}/partners/kyc/cpf-history?${query}`, {
      headers: { authorization: `Bearer ${bearer}`, origin: `https://${MAIN.domain}` },
    });
    return ((await response.json()) as { dados: { outros_campos: { pep: boolean; obito: boolean } } }).dados.outros_campos;
  };

  it("makes the CPF history, the federal revenue record and the person's verifications answer the new facts", async () => {
    // A person of the generated data, read through the unmasked key to learn the CPF.
    const list = (await (
      await core(sandbox.url, "/public/validations-persons?status=approved&per_page=50", "sbx_core_unmasked")
    ).json()) as {
      data: Array<Verification & { pep: boolean; restrictive_lists: unknown[] }>;
    };
    const person = list.data.find((item) => !item.pep && item.restrictive_lists.length === 0)!;
    const cpf = person.document.replace(/\D/g, "");
    expect(await history(cpf)).toMatchObject({ pep: false, obito: false });

    const changed = await facts(cpf, { pep: true, pep_origin: "Mayor", restrictive_lists: ["OFAC", "ONU"], deceased: true });
    expect(await changed.json()).toEqual({ pep: true, pep_origin: "Mayor", restrictive_lists: ["OFAC", "ONU"], deceased: true });
    expect(await history(cpf)).toMatchObject({ pep: true, obito: true });
    const read = (await (await core(sandbox.url, `/public/validations-persons/${person.public_id}`, "sbx_core_view")).json()) as {
      pep: boolean;
      pep_origin: string;
      restrictive_lists: Array<{ name: string }>;
    };
    expect(read).toMatchObject({ pep: true, pep_origin: "Mayor" });
    expect(read.restrictive_lists.map((list) => list.name)).toEqual(["OFAC", "ONU"]);

    // A later change adds to the earlier one: only what it names moves.
    expect(await (await facts(cpf, { deceased: false })).json()).toMatchObject({
      pep: true,
      restrictive_lists: ["OFAC", "ONU"],
      deceased: false,
    });
    expect(await history(cpf)).toMatchObject({ pep: true, obito: false });
  });

  it("names the bad field, and refuses an invalid CPF", async () => {
    const bad = async (cpf: string, body: unknown) => {
      const response = await facts(cpf, body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await bad("52998224725", { pep: "yes" })).toContain("pep");
    expect(await bad("52998224725", { restrictive_lists: "OFAC" })).toContain("restrictive_lists");
    expect(await bad("52998224725", { deceased: 1 })).toContain("deceased");
    expect(await bad("52998224725", { alias: "x" })).toContain("alias");
    expect(await bad("52998224725", {})).toContain("pep");
    expect(await bad("52998224726", { pep: true })).toContain("cpf");
  });
});
