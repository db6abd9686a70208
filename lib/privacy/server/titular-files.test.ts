import PDFDocument from "pdfkit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import type { TitularReport } from "@/lib/privacy/titular";
import { winAnsi } from "@/lib/shared/server/pdf";
import { stubTestEnvironment } from "@/test/db";
import { pdfText } from "@/test/pdf-text";

import { titularReportCsv } from "./titular-csv";
import { fitColumns, longestWord, reportTables, titularReportPdf } from "./titular-pdf";
import { reportMessages } from "./titular-report";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const PUBLIC_ID = "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10";

function report(overrides: Partial<TitularReport> = {}): TitularReport {
  return {
    generatedAt: "2026-02-01T15:00:00.000Z",
    locale: "pt-BR",
    timeZone: "America/Sao_Paulo",
    cpfMasked: "***.982.247-**",
    verifications: [PUBLIC_ID],
    processings: [
      {
        id: 7,
        at: "2026-02-01T13:30:00.000Z",
        action: "lookup.cpf_receita",
        label: "Consulta de CPF (Receita Federal)",
        actor: { name: "=João Ñandú 王", email: "joao@example.com" },
        ip: "203.0.113.5",
        purpose: '=HYPERLINK("x")',
        outcome: "success",
        target: { type: "cpf", id: "***.982.247-**" },
      },
    ],
    truncated: false,
    stored: {
      indexEntries: [
        { publicId: PUBLIC_ID, refId: "+ref", documentMasked: "***.982.247-**", createdHere: true, updatedAt: "2026-02-01T13:00:00.000Z" },
      ],
      cases: [
        {
          publicId: PUBLIC_ID,
          status: "closed",
          queue: "Geral",
          openedAt: "2026-01-01T10:00:00.000Z",
          dueAt: "2026-01-03T10:00:00.000Z",
          closedAt: "2026-01-05T10:00:00.000Z",
          recommendation: "approve",
          notes: { count: 2, dates: ["2026-01-02T10:00:00.000Z", "2026-01-04T10:00:00.000Z"] },
          comments: { count: 0, dates: [] },
        },
      ],
      crops: [],
      providerEvents: [
        {
          publicId: PUBLIC_ID,
          event: "verification.approved",
          status: "approved",
          identityScore: 71,
          fraudScore: 54,
          occurredAt: "2026-01-05T09:00:00.000Z",
        },
      ],
    },
    erasures: [],
    ...overrides,
  };
}

describe("titular report files", () => {
  it("guards every CSV cell against formulas and writes times in the display time zone", () => {
    const csv = titularReportCsv(report());
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("\uFEFFrecord,at,action,label,actor_name,actor_email,ip,purpose,outcome,target_type,target,details");
    expect(lines[1]).toBe(
      `processing,2026-02-01T10:30:00-03:00,lookup.cpf_receita,Consulta de CPF (Receita Federal),"'=João Ñandú 王",joao@example.com,203.0.113.5,"'=HYPERLINK(""x"")",success,cpf,***.982.247-**,`,
    );
    expect(lines[2]).toContain(
      `stored.index_entry,2026-02-01T10:00:00-03:00,,"Entradas do índice de busca (verificação, documento mascarado)",`,
    );
    expect(lines[3]).toContain("notes=2 [2026-01-02T07:00:00-03:00 2026-01-04T07:00:00-03:00]");
    expect(lines[4]).toContain("stored.provider_event");
    // The scores an event carried are what the dashboard keeps about the person too.
    expect(lines[4]).toContain("event=verification.approved; status=approved; scores=71 / 54");
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe("");
  });

  it("guards a purpose or ref_id holding a semicolon, so pt-BR Excel (which splits on it) finds no formula", () => {
    const base = report();
    const csv = titularReportCsv({
      ...base,
      processings: [{ ...base.processings[0]!, purpose: "Conferir;=1+1", actor: { name: "Ana", email: "ana@example.com" } }],
      stored: { ...base.stored, indexEntries: [{ ...base.stored.indexEntries[0]!, refId: "ref;=1+1" }] },
    });
    expect(csv).toContain(`"Conferir;'=1+1"`);
    expect(csv).toContain(`ref;'=1+1`);
    for (const line of csv.split("\r\n"))
      for (const field of line.split(/[,;\t]/)) expect(field.replace(/^[\s"]+/, ""), line).not.toMatch(/^[=+\-@]/);
  });

  it("keeps pt-BR accents for the standard fonts and replaces what WinAnsi cannot draw", () => {
    expect(winAnsi("Conceição — “ok” €")).toBe("Conceição — “ok” €");
    expect(winAnsi("王 a\u202fb")).toBe("? a b");
  });

  it("draws a readable PDF in the report's language", async () => {
    const text = (await pdfText(new Uint8Array(await titularReportPdf(report())))).replace(/\s+/g, " ");
    expect(text).toContain("Relatório de tratamento de dados pessoais");
    expect(text).toContain("CPF do titular: ***.982.247-**");
    expect(text).toContain("Consulta de CPF (Receita Federal)");
    expect(text).toContain("=João Ñandú ?");
    expect(text).toContain("Seus direitos");
    expect(text).toMatch(/Página 1 de \d/);
    expect(text).toContain("71 / 54");

    const empty = (await pdfText(new Uint8Array(await titularReportPdf(report({ locale: "en", processings: [] }))))).replace(/\s+/g, " ");
    expect(empty).toContain("The dashboard has no processing of this person's data on record.");
    expect(empty).toContain("Your rights");
  });

  // A column header breaks at its spaces only: "Resultado" in a 40-point column came out as "Resultad / o".
  it.each(["pt-BR", "en"] as const)("gives every column of every table its header's longest word, within the page, in %s", (locale) => {
    const doc = new PDFDocument({ size: "A4", margin: 48 });
    for (const [name, { header, shares }] of Object.entries(reportTables(reportMessages(locale).t))) {
      const widths = fitColumns(doc, header, shares);
      expect(
        widths.reduce((sum, width) => sum + width, 0),
        name,
      ).toBeLessThanOrEqual(499.01);
      header.forEach((text, index) => {
        // The cell's padding (3 points each side) is not the word's.
        expect(longestWord(doc, text), `${name}: "${text}"`).toBeLessThanOrEqual(widths[index]! - 6);
      });
    }
  });

  it.each(["pt-BR", "en"] as const)("writes each header word of the PDF's tables whole, in %s", async (locale) => {
    const base = report({ locale });
    const crops = [{ publicId: PUBLIC_ID, setAt: "2026-01-02T10:00:00.000Z" }];
    const bytes = await titularReportPdf({ ...base, stored: { ...base.stored, crops } });
    const words = new Set((await pdfText(new Uint8Array(bytes))).split(/\s+/));
    for (const { header } of Object.values(reportTables(reportMessages(locale).t)))
      for (const word of header.flatMap((text) => winAnsi(text).split(/\s+/))) expect(words, word).toContain(word);
  });

  it("writes dates with four-digit years in English too", async () => {
    const text = await pdfText(new Uint8Array(await titularReportPdf(report({ locale: "en" }))));
    expect(text).toContain("01/05/2026");
    expect(text).not.toMatch(/\b\d{1,2}\/\d{1,2}\/\d{2}\b/);
  });
});
