import { render, screen, within } from "@testing-library/react";
import { createTranslator } from "next-intl";
import { renderToReadableStream } from "react-dom/server.edge";
import { describe, expect, it, vi } from "vitest";

import type { TeamAnalytics } from "@/lib/analytics/types";
import { messages } from "@/test/render";

import { TeamView } from "./team-view";

// The page's body is drawn on the server: its translations come from the English catalogue, as next-intl's request
// configuration would give them.
vi.mock("next-intl/server", () => ({
  getLocale: async () => "en",
  getTranslations: async (namespace: string) => createTranslator({ locale: "en", messages, namespace: namespace as "analytics" }),
}));

const summary = (count: number, median: number | null, p90: number | null) => ({ count, median, p90 });
const figures = {
  decided: 3,
  approved: 2,
  reproved: 1,
  toRecommendation: summary(3, 5400, 30 * 3600),
  toConfirmation: summary(1, 3 * 86_400, 3 * 86_400),
  slaMet: 2,
  disagreeingConfirmations: 1,
  escalations: 1,
  reverifications: 0,
  finalKnown: 2,
  contradicted: 1,
  reasons: { identity_confirmed: 2, document_mismatch: 1 },
};
const ANALYTICS: TeamAnalytics = {
  period: { from: "2026-03-01", to: "2026-03-07", days: 7 },
  timeZone: "America/Sao_Paulo",
  team: { ...figures, automaticEscalations: 1, escalations: 2 },
  members: [{ memberId: "m-1", name: "Ana Souza", ...figures }],
};

async function draw(analytics: TeamAnalytics) {
  const stream = await renderToReadableStream(await TeamView({ analytics, connection: "production" }));
  await stream.allReady;
  const html = await new Response(stream).text();
  return render(<div dangerouslySetInnerHTML={{ __html: html }} />);
}

describe("TeamView", () => {
  it("draws each member's figures and the team's total row, durations in words, in a scrolling region", async () => {
    await draw(ANALYTICS);
    const table = screen.getByRole("table", { name: /Each member's numbers/ });
    expect(table.closest("[role=region]")).not.toBeNull();
    const ana = within(table).getByRole("row", { name: /Ana Souza/ });
    expect(
      within(ana)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["3", "2", "1", "1.5 h", "30 h", "3 d", "3 d", "2", "1", "1", "0", "2", "1"]);
    const team = within(table).getByRole("row", { name: /^Team/ });
    expect(within(team).getAllByRole("cell")[9]?.textContent).toBe("2");
    expect(screen.getByText("Of the team's escalations, 1 was automatic (past due time).")).toBeTruthy();
  });

  it("offers the CSV of the period under the page's connection, and the reasons with their labels", async () => {
    await draw(ANALYTICS);
    const link = screen.getByRole("link", { name: "Download CSV: the team's numbers per member" });
    expect(link.getAttribute("href")).toBe("/api/analytics/team?from=2026-03-01&to=2026-03-07&format=csv&connection=production");
    const reasons = screen.getByRole("table", { name: /How often each reason was cited/ });
    expect(within(reasons).getByRole("row", { name: /Identity confirmed/ }).textContent).toContain("2");
  });

  it("says when nothing was counted instead of drawing empty charts", async () => {
    const empty = { ...figures, decided: 0, approved: 0, reproved: 0, slaMet: 0, reasons: {} };
    await draw({ ...ANALYTICS, team: { ...empty, automaticEscalations: 0 }, members: [] });
    expect(screen.getByText("Nothing was decided, confirmed, escalated or re-verified in this period.")).toBeTruthy();
    expect(screen.getByText("No recommendation was recorded in this period.")).toBeTruthy();
  });
});
