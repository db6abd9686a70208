import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderWithProviders } from "@/test/render";
import { verificationFixture } from "@/test/verification-fixtures";

import { VerificationTable } from "./verification-table";

/*
 * The list's table: its rows are worked out where the table is drawn (the server, on the list) and drawn from that
 * value (./verification-rows.tsx). Each row shows its verification's own status, steps, scores, flags and link.
 */

const step = (name: string, state: string) => ({ name, state, notices: [], extra: {} });

const items = [
  verificationFixture({
    publicId: "ver_a",
    status: "reproved",
    document: "***.615.346-**",
    documentMasked: true,
    riskScore: 60,
    steps: [step("ocr", "reproved"), step("liveness", "approved")],
    restrictiveLists: [{ name: "OFAC", extra: {} }],
  }),
  verificationFixture({ publicId: "ver_b", status: "approved", identityScore: 91.25, steps: [step("ocr", "approved")] }),
];

const row = (id: string) => screen.getByRole("row", { name: new RegExp(id) });

describe("VerificationTable", () => {
  it("draws each row from its own verification", () => {
    renderWithProviders(<VerificationTable items={items} caption="Verifications" listQuery="status=review" />);
    const a = within(row("ver_a"));
    expect(a.getByRole("link", { name: "Open verification ver_a" })).toHaveAttribute("href", "/verifications/ver_a?list=status%3Dreview");
    expect(a.getByText("Reproved")).toBeInTheDocument();
    expect(a.getByText("OCR: Reproved")).toBeInTheDocument();
    expect(a.getByText("Liveness: Approved")).toBeInTheDocument();
    expect(a.getByText("1 list")).toBeInTheDocument();
    expect(a.getByText("60")).toBeInTheDocument();
    expect(a.getByText("(masked)", { exact: false })).toBeInTheDocument();

    const b = within(row("ver_b"));
    expect(b.getByText("Approved")).toBeInTheDocument();
    expect(b.getByText("OCR: Approved")).toBeInTheDocument();
    expect(b.getByText("91.3")).toBeInTheDocument();
    expect(b.queryByText("(masked)", { exact: false })).toBeNull();
  });
});
