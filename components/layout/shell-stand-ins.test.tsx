import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { SignOutForm } from "@/components/auth/sign-out-form";
import { CaseSearchForm } from "@/components/cases/case-search-form";
import { renderWithProviders } from "@/test/render";

import { LanguageSelect } from "./language-select";

/*
 * The shell's controls whose scripts come after the page's load (./shell-island.tsx) are drawn first by the server as
 * stand-ins: the search and the language choice disabled, so nothing typed or chosen is lost when the control
 * replaces them, and signing out a form that posts without a script. The same modules draw the working controls.
 */
describe("the shell's stand-ins and their controls", () => {
  it("the search's stand-in takes no input; with its handlers the same form does", () => {
    const stand = renderWithProviders(<CaseSearchForm by="ref_id" value="" />);
    expect(screen.getByRole("combobox", { name: "Search by" })).toBeDisabled();
    expect(screen.getByRole("textbox", { name: "Find a verification" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Search" })).toBeDisabled();
    stand.unmount();

    const on = { by: vi.fn(), value: vi.fn(), submit: vi.fn() };
    renderWithProviders(<CaseSearchForm by="cpf" value="" on={on} />);
    expect(screen.getByRole("combobox", { name: "Search by" })).toBeEnabled();
    expect(screen.getByRole("textbox", { name: "Find a verification" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Search" })).toBeEnabled();
  });

  it("the language's stand-in shows the language in use, disabled; with its handler it can be changed", async () => {
    const stand = renderWithProviders(<LanguageSelect locale="en" />);
    expect(screen.getByRole("combobox", { name: "Language" })).toBeDisabled();
    expect(screen.getByRole("combobox", { name: "Language" })).toHaveValue("en");
    stand.unmount();

    const onChoose = vi.fn();
    const { user } = renderWithProviders(<LanguageSelect locale="en" onChoose={onChoose} />);
    await user.selectOptions(screen.getByRole("combobox", { name: "Language" }), "pt-BR");
    expect(onChoose).toHaveBeenCalledWith("pt-BR");
  });

  it("signing out's stand-in is a form that posts to the sign-out route, its button usable without a script", () => {
    renderWithProviders(<SignOutForm />);
    const button = screen.getByRole("button", { name: "Sign out" });
    expect(button).toBeEnabled();
    expect(button).toHaveAttribute("type", "submit");
    const form = button.closest("form");
    expect(form).toHaveAttribute("method", "post");
    expect(form).toHaveAttribute("action", "/api/auth/sign-out");
  });
});
