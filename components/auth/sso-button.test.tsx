import { render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";

import { messages } from "@/test/render";

import { SsoButton } from "./sso-button";

/*
 * The single sign-on button's press is handled by script alone: in the server's HTML it is drawn disabled, so a press
 * on a slow first load is refused visibly instead of doing nothing (a browser test pressed it then, once, and waited a
 * minute for the provider); once the page's code runs it is pressable.
 */

const inEnglish = (element: ReactElement) => (
  <NextIntlClientProvider locale="en" messages={messages} timeZone="America/Sao_Paulo">
    {element}
  </NextIntlClientProvider>
);

describe("SsoButton", () => {
  it("is disabled in the server's HTML and pressable once hydrated", () => {
    const host = document.createElement("div");
    host.innerHTML = renderToString(inEnglish(<SsoButton callbackPath="/" onFailure={vi.fn()} />));
    expect(host.querySelector("button")!.disabled).toBe(true);

    render(inEnglish(<SsoButton callbackPath="/" onFailure={vi.fn()} />));
    expect(screen.getByRole("button", { name: "Sign in with single sign-on" })).toBeEnabled();
  });
});
