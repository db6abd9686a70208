import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { Verification } from "@/lib/upstream/model/verification";
import { NOW, renderWithProviders } from "@/test/render";

import { VerificationHeader } from "./verification-header";

/*
 * The flow's expiry on the verification's header (legitimuz-core-documentation api/verification-statuses.mdx: expiry is
 * read from `expires_at`, never from the status), with the time left while the person can still finish; the clock is
 * test/render.tsx's NOW.
 */

const hours = (count: number) => new Date(NOW.getTime() + count * 3_600_000).toISOString();

function verification(patch: Partial<Verification>): Verification {
  return {
    publicId: "ver-expiry-1",
    document: "***.982.247-**",
    documentMasked: true,
    status: "not_opened",
    steps: [],
    identityScore: null,
    riskScore: null,
    pepOrigin: null,
    restrictiveLists: [],
    person: {},
    extra: {},
    ...patch,
  };
}

describe("the header's flow expiry", () => {
  it("says the time left while the person has not finished", () => {
    renderWithProviders(<VerificationHeader verification={verification({ expiresAt: hours(5) })} />);
    expect(screen.getByText("Flow open until")).toBeInTheDocument();
    expect(screen.getByTestId("verification-expiry")).toHaveTextContent(/\(in 5 hours\)$/);
  });

  it("says since when it expired", () => {
    renderWithProviders(<VerificationHeader verification={verification({ status: "started", expiresAt: hours(-2) })} />);
    expect(screen.getByTestId("verification-expiry")).toHaveTextContent(/\(expired 2 hours ago\)$/);
  });

  it("says nothing of expiry once the person's part is done (the case page's first screen), nor when the service says none", () => {
    const { unmount } = renderWithProviders(
      <VerificationHeader verification={verification({ status: "review", expiresAt: hours(-30) })} />,
    );
    expect(screen.queryByTestId("verification-expiry")).toBeNull();
    unmount();
    renderWithProviders(<VerificationHeader verification={verification({})} />);
    expect(screen.queryByText("Flow open until")).toBeNull();
  });
});
