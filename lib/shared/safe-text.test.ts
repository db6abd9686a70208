import { describe, expect, it } from "vitest";
import { z } from "zod";

import { toErrorResponse } from "@/lib/api/errors";

import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE, UNSAFE_TEXT_PATTERN } from "./safe-text";
import { refuseUnsafeText, safeText } from "./safe-text-schema";

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;

describe("safe text", () => {
  const classes: Array<[string, number[]]> = [
    ["embeddings and overrides", [0x202a, 0x202b, 0x202c, 0x202d, 0x202e]],
    ["isolates", [0x2066, 0x2067, 0x2068, 0x2069]],
    ["direction marks", [0x200e, 0x200f, 0x061c]],
    ["zero-width space, non-joiner, joiner", [0x200b, 0x200c, 0x200d]],
    ["word joiner", [0x2060]],
    ["zero-width no-break space (byte-order mark)", [0xfeff]],
    ["soft hyphen", [0x00ad]],
    ["line and paragraph separators", [0x2028, 0x2029]],
    ["invisible operators", [0x2061, 0x2062, 0x2063, 0x2064]],
    ["Mongolian vowel separator", [0x180e]],
    ["tag characters", [0xe0000, 0xe0001, 0xe0020, 0xe0041, 0xe007f]],
    ["variation selectors", [0xfe00, 0xfe0e, 0xfe0f, 0xe0100, 0xe01ef]],
    ["other invisible fillers and format characters", [0x034f, 0x115f, 0x3164, 0xffa0, 0x206a, 0x206f, 0xfff9]],
  ];

  it.each(classes)("refuses %s, anywhere in the text", (_, codes) => {
    for (const code of codes) {
      const character = String.fromCodePoint(code);
      for (const text of [`${character}Ana`, `An${character}a`, `Ana${character}`]) {
        expect(hasUnsafeTextCharacters(text), `${hex(code)} in ${JSON.stringify(text)}`).toBe(true);
      }
    }
  });

  it("accepts ordinary text in any script, accents, emoji, newlines and the characters next to the refused ones", () => {
    for (const text of ["Ana Conceição", "João D'Ávila-Souza", "محمد", "שלום", "Loja 🛒"]) {
      expect(hasUnsafeTextCharacters(text), text).toBe(false);
    }
    expect(hasUnsafeTextCharacters("line one\nline two\ttabbed")).toBe(false);
    // Neighbours of the refused ranges: ordinary punctuation and spaces.
    for (const code of [0x2010, 0x2019, 0x202f, 0x2070, 0x00a0, 0x00ac, 0x00ae, 0x061b, 0x061f, 0xfe10, 0x1f44d]) {
      expect(hasUnsafeTextCharacters(`a${String.fromCodePoint(code)}b`), hex(code)).toBe(false);
    }
    // The pattern is not global: testing it twice gives the same answer (no lastIndex state).
    expect(UNSAFE_TEXT_PATTERN.test("a\u202Eb")).toBe(true);
    expect(UNSAFE_TEXT_PATTERN.test("a\u202Eb")).toBe(true);
  });

  it("refuses emoji sequences built with a zero-width joiner (the joiner is the rule, whatever it joins)", () => {
    expect(hasUnsafeTextCharacters("👩🏽\u200D💻")).toBe(true);
  });

  it("as a zod check: the issue sits on the field and the API's 400 names it and says what was refused", async () => {
    const schema = z.object({ name: safeText(z.string().trim().max(20)), note: z.string().check(refuseUnsafeText()) });
    expect(schema.parse({ name: " Ana ", note: "fine" })).toEqual({ name: "Ana", note: "fine" });
    const failed = schema.safeParse({ name: "Ana\u202Egpj.exe", note: "ok\u200Bok" });
    expect(failed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", UNSAFE_TEXT_MESSAGE],
      ["note", UNSAFE_TEXT_MESSAGE],
    ]);
    const response = toErrorResponse(failed.error);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; fields: string[] } };
    expect(body.error.code).toBe("validation");
    expect(body.error.fields).toEqual(["name", "note"]);
    expect(body.error.message).toContain("name: contains invisible or text-direction characters");
  });
});
