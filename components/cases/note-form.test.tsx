import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { apiError, mockApi, renderWithProviders } from "@/test/render";

import { CaseNoteForm } from "./note-form";

/*
 * The note form (shared with the monitoring alerts' notes, components/monitoring/alert-notes.tsx): the case's posts to
 * the case's notes; a refusal keeps the text and hands the focus back to the field, with the server's words; a stored
 * note empties the field.
 */

describe("CaseNoteForm", () => {
  it("sends the note to the case, keeps it through a refusal and empties the field once it is stored", async () => {
    const api = mockApi({
      "POST /api/cases/ver-1/notes": [
        apiError(409, { code: "conflict", message: "Someone else holds this case." }),
        { id: 7, at: "2026-10-02T10:00:00Z" },
      ],
    });
    const { user } = renderWithProviders(<CaseNoteForm publicId="ver-1" />);
    const field = screen.getByRole("textbox", { name: "Add a note" });
    expect(screen.getByRole("button", { name: "Add note" })).toBeDisabled();
    await user.type(field, "Called the titular");
    await user.click(screen.getByRole("button", { name: "Add note" }));
    expect(await screen.findByText("Someone else holds this case.")).toBeInTheDocument();
    expect(field).toHaveValue("Called the titular");
    expect(field).toHaveFocus();

    await user.click(screen.getByRole("button", { name: "Add note" }));
    await expect.poll(() => (field as HTMLTextAreaElement).value).toBe("");
    expect(api.callsTo("POST /api/cases/ver-1/notes").map((call) => call.body)).toEqual([
      { text: "Called the titular" },
      { text: "Called the titular" },
    ]);
  });
});
