import { lastEventIdOf, processLiveStream } from "@/lib/api/live-stream";
import { route } from "@/lib/api/route";
import { sessionFromCookies } from "@/lib/auth/server/require-role";
import { parseCookieHeader } from "@/lib/shared/cookie-header";

// GET /api/events/stream – Server-Sent Events of what changed (cases, verifications, the member's own
// notifications), filtered by what the member may read; resumes after Last-Event-ID (or `lastEventId`).
// Always a background request: an open tab's stream never keeps the session alive, and it closes when the
// session ends (re-read every minute). Not audited: it carries topics and ids only.
export const GET = route({ permission: "signed_in", background: true }, async ({ request, user, connection }) => {
  const cookies = parseCookieHeader(request.headers.get("cookie"));
  const stream = await processLiveStream({
    user,
    connectionId: connection.id,
    lastEventId: lastEventIdOf(request),
    signal: request.signal,
    stillSignedIn: async () => {
      const now = await sessionFromCookies(cookies, { active: false });
      return now && now.sessionId === user.sessionId && !now.awaiting ? now : null;
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      // Proxies that buffer (nginx) would hold the events back.
      "X-Accel-Buffering": "no",
    },
  });
});
