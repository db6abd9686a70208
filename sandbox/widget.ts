/* A plain page at the widget addresses returned by get-sdk-url, so they open in a browser. */
import { escapeHtml, html, type Router } from "./http";
import type { SandboxState } from "./state";

export function widgetRoutes(state: SandboxState, router: Router): void {
  router.add("GET", "/widget/:session_id", (ctx) => {
    const sessionId = ctx.params.session_id ?? "";
    // A KYC session id (get-sdk-url) or a verification's public id (the creation answer's entry.url).
    const session =
      state.sessions.get(sessionId) ?? (state.verifications.locate(sessionId) ? { personId: "of a created verification" } : undefined);
    const lang = ctx.query.get("lang") ?? "pt-BR";
    const body = session
      ? `<p>Session <code>${escapeHtml(sessionId)}</code> (person ${session.personId}) would capture the document and a selfie here.</p>`
      : `<p>Session <code>${escapeHtml(sessionId)}</code> is unknown to this sandbox (sessions live in memory and end with the process).</p>`;
    return html(
      session ? 200 : 404,
      `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Capture widget (sandbox)</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Capture widget (sandbox)</h1>
${body}
<p>Session id: <code>${escapeHtml(sessionId)}</code></p>
</body>
</html>
`,
    );
  });
}
