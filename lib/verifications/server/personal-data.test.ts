import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { setLogSink } from "@/lib/log";
import { CoreClient } from "@/lib/upstream/core";
import { sendJson, startFakeServer, type FakeServer } from "@/test/fake-upstream";

import { asSeenBy } from "./personal-data";

/*
 * Masking is an allow-list: the service adds a field the contract does not show (a social name, a holder's name in a
 * step, a birth date in a notice, a list entry naming the person), the core client keeps it as `extra`, and a member
 * without `personal_data.unmasked` receives the verification without it: dropped, not scrubbed, whatever its shape.
 */

const NAME = "Joana Prado Quintela";
const verification = {
  public_id: "5f0c7e0e-8d7a-4c43-9d55-0b7c1f3e2a11",
  document: "529.982.247-25",
  status: "review",
  name: NAME,
  birth_date: "1988-02-29",
  nome_social: NAME,
  data_nasc: "29/02/1988",
  steps: {
    ocr: { state: "approved", notices: [{ code: "name_read", message: `Nome lido: ${NAME}` }], holder_name: NAME },
    address: { state: "approved", notices: [`${NAME}, nascida em 29/02/1988`], street_owner: NAME },
  },
  identity_score: 71,
  risk_score: 12,
  pep_origin: null,
  restrictive_lists: [{ name: "CEIS", source: "cgu", listed_as: NAME }],
  obito: false,
};

let server: FakeServer;
beforeEach(async () => {
  setLogSink(() => undefined);
  server = await startFakeServer((req, res) =>
    sendJson(res, req.path.startsWith("/public/validations-persons/") ? 200 : 404, verification),
  );
});
afterEach(async () => {
  setLogSink(undefined);
  await server.close();
});

const read = () =>
  new CoreClient({
    baseUrl: server.url,
    apiKey: "fake_core_api_key",
    pageParam: "page",
    maxPerPage: 50,
    retryBaseDelayMs: 1,
  }).getVerification(verification.public_id);

describe("an upstream answer with fields the dashboard does not know", () => {
  it("reaches a masked member without them: no name, no birth date, in no field, step, notice or list entry", async () => {
    const seen = asSeenBy({ permissions: ["verifications.read"] }, await read());
    const text = JSON.stringify(seen);
    expect(text).not.toMatch(/Joana|Prado|Quintela|1988|29\/02/);
    expect(seen.extra).toEqual({ obito: false });
    expect(seen.steps.map((step) => step.extra)).toEqual([{}, {}]);
    expect(seen.steps.flatMap((step) => step.notices)).toEqual([
      { code: "name_read", message: "", withheld: true },
      { message: "", withheld: true },
    ]);
    expect(seen.restrictiveLists).toEqual([{ name: "CEIS", source: "cgu", extra: {} }]);
  });

  it("reaches a member holding personal_data.unmasked as the key gave it", async () => {
    const seen = asSeenBy({ permissions: ["verifications.read", "personal_data.unmasked"] }, await read());
    expect(seen.extra).toMatchObject({ nome_social: NAME, data_nasc: "29/02/1988" });
    expect(seen.steps[0]?.extra).toEqual({ holder_name: NAME });
  });
});
