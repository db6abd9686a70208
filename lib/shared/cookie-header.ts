// Shared by the session check, the reveal cookie and the language choice: a request's Cookie header as a record.

export function parseCookieHeader(header: string | null): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const part of (header ?? "").split(";").map((entry) => entry.trim())) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const raw = part.slice(index + 1).trim();
    try {
      jar[name] ??= decodeURIComponent(raw);
    } catch {
      jar[name] ??= raw;
    }
  }
  return jar;
}
