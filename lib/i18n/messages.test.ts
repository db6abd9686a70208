import { describe, expect, it } from "vitest";

import { chooseLocale, negotiateLocale } from "./locales";
import { loadMessages } from "./messages";

function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keysOf(inner, prefix ? `${prefix}.${key}` : key));
}

describe("message catalogue", () => {
  it("pt-BR and English hold exactly the same keys", async () => {
    const [pt, en] = await Promise.all([loadMessages("pt-BR"), loadMessages("en")]);
    expect(keysOf(pt).sort()).toEqual(keysOf(en).sort());
  });
});

describe("negotiateLocale", () => {
  it.each([
    [null, "pt-BR"],
    ["en-US,en;q=0.9", "en"],
    ["pt-PT", "pt-BR"],
    ["fr-FR,en;q=0.5,pt;q=0.8", "pt-BR"],
    ["fr-FR,de;q=0.5", "pt-BR"],
    ["en;q=0,pt-BR;q=0.1", "pt-BR"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe("chooseLocale", () => {
  it("takes the user's choice when it names a language, else negotiates Accept-Language", () => {
    expect(chooseLocale("en", "pt-BR")).toBe("en");
    expect(chooseLocale("pt-BR", "en")).toBe("pt-BR");
    expect(chooseLocale("fr", "en")).toBe("en");
    expect(chooseLocale(undefined, null)).toBe("pt-BR");
  });
});
