import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { RETENTION_KINDS } from "./retention";

// The privacy page names each retention policy's kind (components/privacy/retention-table.tsx): a kind added to the
// pruner without its label would show as a missing message on the page.
// Its reason too, in the member's language: the pt-BR page showed the server's English reasons.
describe("retention kinds", () => {
  it.each(["en", "pt-BR"])("each kind has its label and its reason in %s", (locale) => {
    const messages = JSON.parse(fs.readFileSync(path.join(process.cwd(), "messages", locale, "privacy.json"), "utf8")) as {
      retention: { kinds: Record<string, string>; reasons: Record<string, string> };
    };
    expect(Object.keys(messages.retention.kinds).sort()).toEqual([...RETENTION_KINDS].sort());
    expect(Object.keys(messages.retention.reasons).sort()).toEqual([...RETENTION_KINDS].sort());
  });

  // The API's documentation lists the kinds the answer may hold: it had left out `upstream_calls`.
  it("are the kinds docs/http-api.md lists for GET /api/privacy/retention", () => {
    const docs = fs.readFileSync(path.join(process.cwd(), "docs", "http-api.md"), "utf8");
    const sentence = /`kind` is one of\s+([^;]+);/.exec(docs)?.[1] ?? "";
    const listed = [...sentence.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]);
    expect(listed.sort()).toEqual([...RETENTION_KINDS].sort());
  });
});
