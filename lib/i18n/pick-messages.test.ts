import { describe, expect, it } from "vitest";

import { pickMessages } from "./pick-messages";

const catalogue = {
  common: { appName: "Painel", nav: { list: "Lista", audit: "Auditoria" } },
  audit: { title: "Trilha" },
  verifications: { status: { approved: "Aprovada" }, table: { cpf: "CPF" } },
};

describe("pickMessages", () => {
  it("keeps only the named paths, nested as in the catalogue", () => {
    expect(pickMessages(catalogue, ["common.nav", "verifications.status"])).toEqual({
      common: { nav: { list: "Lista", audit: "Auditoria" } },
      verifications: { status: { approved: "Aprovada" } },
    });
  });

  it("a path inside another named one is covered by it, in either order, and the catalogue is left as it was", () => {
    const before = structuredClone(catalogue);
    expect(pickMessages(catalogue, ["verifications.status", "verifications", "common.nav.list"])).toEqual({
      verifications: catalogue.verifications,
      common: { nav: { list: "Lista" } },
    });
    expect(catalogue).toEqual(before);
  });

  it("names an unknown path", () => {
    expect(() => pickMessages(catalogue, ["verifications.nope"])).toThrow(/verifications\.nope/);
  });

  it("nothing asked, nothing given", () => {
    expect(pickMessages(catalogue, [])).toEqual({});
  });
});
