import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { rememberListView } from "@/lib/verifications/list-memory";
import { mockApi, renderWithProviders } from "@/test/render";
import { verificationFixture } from "@/test/verification-fixtures";

import { VerificationNeighbours } from "./verification-neighbours";

/*
 * Previous and next on the detail: from the view the list drew in this tab, with no call, or from the service when
 * the analyst did not come from the list in this tab (a link opened elsewhere), in the list's order either way.
 */

const pagination = { page: 1, perPage: 20, total: 3, totalPages: 1 };

describe("VerificationNeighbours", () => {
  it("steps through the view the list drew in this tab, asking the service for nothing", async () => {
    const query = "status=review&sort=-risk_score";
    rememberListView(query, { ids: ["vrf_c", "vrf_a", "vrf_b"], pagination, pagingAvailable: true });
    const api = mockApi({});
    renderWithProviders(<VerificationNeighbours publicId="vrf_a" listQuery={query} />);
    expect(screen.getByRole("link", { name: "← Previous" })).toHaveAttribute(
      "href",
      `/verifications/vrf_c?list=${encodeURIComponent(query)}`,
    );
    expect(screen.getByRole("link", { name: "Next →" })).toHaveAttribute("href", `/verifications/vrf_b?list=${encodeURIComponent(query)}`);
    expect(screen.getByText("2 of 3")).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it("reads the view from the service when the list did not draw it here, sorted as the list sorts it", async () => {
    const query = "status=approved&sort=-risk_score";
    const items = [
      verificationFixture({ publicId: "vrf_low", riskScore: 10 }),
      verificationFixture({ publicId: "vrf_mid", riskScore: 50 }),
      verificationFixture({ publicId: "vrf_high", riskScore: 90 }),
    ];
    const api = mockApi({ "GET /api/verifications": { items, pagination, pagingAvailable: true } });
    renderWithProviders(<VerificationNeighbours publicId="vrf_mid" listQuery={query} />);
    expect(await screen.findByRole("link", { name: "← Previous" })).toHaveAttribute(
      "href",
      `/verifications/vrf_high?list=${encodeURIComponent(query)}`,
    );
    expect(screen.getByRole("link", { name: "Next →" })).toHaveAttribute(
      "href",
      `/verifications/vrf_low?list=${encodeURIComponent(query)}`,
    );
    expect(api.callsTo("GET /api/verifications")).toHaveLength(1);
  });
});
