import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { apiError, mockApi, renderWithProviders } from "@/test/render";

import { AlertNotes } from "./alert-notes";

/*
 * An alert's notes write through the case's note form (components/cases/note-form.tsx) to the alert's own notes: a
 * refusal keeps the text and hands the focus back to the field; without the right to write, no field.
 */

const ID = "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d";

describe("AlertNotes", () => {
  it("posts to the alert's notes and keeps the text through a refusal", async () => {
    const api = mockApi({
      [`GET /api/monitoring/alerts/${ID}/notes`]: { notes: [] },
      [`POST /api/monitoring/alerts/${ID}/notes`]: apiError(403, { code: "forbidden", message: "Only the alert's holder writes notes." }),
    });
    const { user } = renderWithProviders(<AlertNotes alertId={ID} mayWrite />);
    expect(await screen.findByText("No note yet.")).toBeInTheDocument();
    const field = screen.getByRole("textbox", { name: "Add a note" });
    expect(field).toHaveAccessibleDescription(/Seen by the team, never on the audit trail/);
    await user.type(field, "Namesake");
    await user.click(screen.getByRole("button", { name: "Add note" }));
    expect(await screen.findByText("Only the alert's holder writes notes.")).toBeInTheDocument();
    expect(field).toHaveValue("Namesake");
    expect(field).toHaveFocus();
    expect(api.callsTo(`POST /api/monitoring/alerts/${ID}/notes`).map((call) => call.body)).toEqual([{ text: "Namesake" }]);
  });

  it("shows no field to a member who may not write", async () => {
    mockApi({ [`GET /api/monitoring/alerts/${ID}/notes`]: { notes: [] } });
    renderWithProviders(<AlertNotes alertId={ID} mayWrite={false} />);
    expect(await screen.findByText("No note yet.")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
  });
});
