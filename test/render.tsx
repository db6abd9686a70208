import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, type RenderOptions } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { NextIntlClientProvider } from "next-intl";
import type { ReactElement, ReactNode } from "react";
import { vi } from "vitest";

import { StepUpProvider } from "@/components/auth/step-up-provider";
import { loadMessages } from "@/lib/i18n/messages";

import { currentUrl, router, setUrl } from "./navigation";

/*
 * Rendering a component as the signed-in shell does (app/providers.tsx, app/layout.tsx): the English catalogue
 * as the app assembles it, a fresh react-query client per test, the step-up provider, and next/navigation's
 * double (test/navigation.ts) at the given URL. The dashboard's API is answered by `mockApi`, at fetch, the
 * boundary the components' hooks call through (lib/shared/api-client/api-request.ts).
 */

export { currentUrl, router };

export const messages = await loadMessages("en");

/** The clock next-intl is given, so relative times and "now" read the same on every run. */
export const NOW = new Date("2026-03-10T12:00:00Z");
export const TIME_ZONE = "America/Sao_Paulo";

/** The app's client (app/providers.tsx) less its retries' and refetches' timing: every answer comes at once. */
function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000, gcTime: Infinity },
      mutations: { retry: false, gcTime: Infinity },
    },
  });
}

export function renderWithProviders(
  ui: ReactElement,
  {
    url = "/",
    queryClient = testQueryClient(),
    ...options
  }: { url?: string; queryClient?: QueryClient } & Omit<RenderOptions, "wrapper"> = {},
) {
  setUrl(url);
  function Wrapper({ children }: { children: ReactNode }) {
    return (
      <NextIntlClientProvider locale="en" messages={messages} timeZone={TIME_ZONE} now={NOW}>
        <QueryClientProvider client={queryClient}>
          <StepUpProvider>{children}</StepUpProvider>
        </QueryClientProvider>
      </NextIntlClientProvider>
    );
  }
  const user = userEvent.setup();
  return { user, queryClient, ...render(ui, { wrapper: Wrapper, ...options }) };
}

/** A request a component sent to the dashboard's API. */
export interface ApiCall {
  method: string;
  /** The path and query, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body, parsed; undefined without one. */
  body: unknown;
}

type ApiResponse = { status: number; body?: unknown };

/** An answer: a JSON body (status 200), a status with a body (`status`, `apiError`), or a function of the call. */
export type ApiAnswer = ((call: ApiCall) => ApiResponse | Promise<ApiResponse>) | object;

/** `status(409, { error: { code, message } })`: an answer other than 200. */
export const status = (code: number, body?: unknown): ApiResponse => ({ status: code, body });

/** The dashboard's error model, as lib/api/errors.ts writes it. */
export const apiError = (code: number, error: { code: string; message: string; fields?: string[] }) => status(code, { error });

// A JSON answer whose only keys were a numeric `status` and `body` would read as one: wrap such a body in status(200, …).
const isResponse = (answer: unknown): answer is ApiResponse =>
  typeof answer === "object" &&
  answer !== null &&
  "status" in answer &&
  typeof answer.status === "number" &&
  Object.keys(answer).every((key) => key === "status" || key === "body");

/**
 * Answers the dashboard's API for one test: `routes` maps "METHOD /path" (no query) to an answer; a list of
 * answers is used in turn (the last one repeats). A call no route answers gets a 501 and is kept in
 * `unanswered`. Restored after each test (test/dom-setup.ts).
 */
export function mockApi(routes: Record<string, ApiAnswer | ApiAnswer[]>) {
  const calls: ApiCall[] = [];
  const unanswered: string[] = [];
  const used = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), "http://localhost");
    const method = (init.method ?? "GET").toUpperCase();
    const text = typeof init.body === "string" ? init.body : undefined;
    const call: ApiCall = {
      method,
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: text === undefined ? undefined : JSON.parse(text),
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    const route = routes[key];
    if (route === undefined) {
      unanswered.push(key);
      return Response.json({ error: { code: "internal", message: `no test answer for ${key}` } }, { status: 501 });
    }
    const index = used.get(key) ?? 0;
    used.set(key, index + 1);
    const answer = Array.isArray(route) ? route[Math.min(index, route.length - 1)] : route;
    const response = typeof answer === "function" ? await (answer as (call: ApiCall) => ApiResponse)(call) : answer;
    const { status: code, body } = isResponse(response) ? response : { status: 200, body: response };
    return code === 204 ? new Response(null, { status: 204 }) : Response.json(body ?? {}, { status: code });
  });
  vi.stubGlobal("fetch", fetchMock);
  return {
    calls,
    unanswered,
    /** The calls to one route ("POST /api/cases/x/outcome"). */
    callsTo: (route: string) => calls.filter((call) => `${call.method} ${call.path}` === route),
  };
}
