import { describe, expect, it } from "vitest";

import type { SuspiciousActivityDto } from "@/lib/cases/coaf";
import { pdfText } from "@/test/pdf-text";
import { verificationFixture } from "@/test/verification-fixtures";

import { dossierVerification, type SuspiciousActivityDossier } from "./suspicious-activity-dossier";
import { suspiciousActivityPdf } from "./suspicious-activity-pdf";

/*
 * The dossier's verification part: masked as for a member without the unmasked permission (never the full CPF,
 * never the person's name) and in the PDF with its steps, scores, PEP flag and restrictive lists.
 */

const report: SuspiciousActivityDto = {
  id: "6f1c8a52-1b7e-4d0e-9a55-0d6f0f4b2a10",
  status: "draft",
  casePublicId: "ver_1",
  documentMasked: "***.982.247-**",
  summary: "Declared income far below the amounts moved",
  grounds: ["incompatible_income", "pep_without_justification"],
  operations: [],
  openedAt: "2026-11-20T10:00:00.000Z",
  openedBy: "00000000-0000-0000-0000-000000000001",
  deadline: "2026-11-18T10:00:00.000Z",
  overdue: true,
  protocol: null,
  filedAt: null,
};

describe("the dossier's verification", () => {
  const verification = dossierVerification(
    verificationFixture({
      identityScore: 71,
      riskScore: 54,
      pepOrigin: "Portal da Transparência",
      person: { name: "Mariana Luíza Costa Ribeiro", pep: true },
      restrictiveLists: [{ name: "OFAC SDN", source: "ofac", listedAt: "2024-02-01", extra: {} }],
      steps: [
        { name: "ocr", state: "approved", notices: [], extra: {} },
        { name: "facematch", state: "approved", similarity: 92, notices: [{ code: "low_light", message: "Low light" }], extra: {} },
      ],
    }),
  );

  it("keeps the document masked and no name", () => {
    expect(verification.document).not.toContain("529.982.247-25");
    expect(verification.document).toMatch(/\*/);
    expect(JSON.stringify(verification)).not.toContain("Mariana");
    expect(verification).toMatchObject({ pep: true, identityScore: 71, riskScore: 54 });
  });

  it("writes the report, the verification's facts and the overdue deadline in the PDF, in English", async () => {
    const dossier: SuspiciousActivityDossier = {
      generatedAt: "2026-11-21T09:00:00.000Z",
      report,
      case: null,
      verification,
      verificationError: null,
      decisions: [],
      timeline: [],
      samePerson: [],
    };
    const text = (await pdfText(new Uint8Array(await suspiciousActivityPdf(dossier, "en")))).replace(/\s+/g, " ");
    for (const fact of [
      report.summary,
      "Operations incompatible with the declared income or activity",
      "Politically exposed person without a justification",
      "Overdue",
      "Not filed yet.",
      "Politically exposed person: yes",
      "Portal da Transparência",
      "OFAC SDN (ofac) 2024-02-01",
      "facematch: approved 92%",
      "Identity score: 71; risk score: 54",
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).not.toContain("529.982.247-25");
  });
});
