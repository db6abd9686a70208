/* How long a partners token is kept before it is renewed (partners-session.ts). */

export interface CachedToken {
  value: string;
  /** Date.now()-based instant after which the token is renewed before use. */
  renewAt: number;
}

/** `{exp, iat}` of a JWT, or undefined for an opaque token. The signature is not ours to check. */
function jwtTimes(token: string): { exp?: number; iat?: number } | undefined {
  const payload = token.split(".")[1];
  if (token.split(".").length !== 3 || !payload) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!claims || typeof claims !== "object") return undefined;
    const { exp, iat } = claims as { exp?: unknown; iat?: unknown };
    return { exp: typeof exp === "number" ? exp : undefined, iat: typeof iat === "number" ? iat : undefined };
  } catch {
    return undefined;
  }
}

/**
 * Lifetime of a token in seconds: the JWT's own `exp - iat` (independent of clock skew between us and the
 * service) or `exp - now`, else the lifetime the answer states, else the fallback; never above `cap`.
 */
export function lifetimeSeconds(token: string, nowMs: number, stated: number | undefined, fallback: number, cap = Infinity): number {
  const times = jwtTimes(token);
  let lifetime = fallback;
  if (times?.exp !== undefined) lifetime = times.exp - (times.iat ?? nowMs / 1000);
  else if (stated !== undefined) lifetime = stated;
  // A JWT already expired by our clock is trusted no more than the fallback; a 401 then renews it.
  if (!(lifetime > 0)) lifetime = fallback;
  return Math.min(lifetime, cap);
}

/** Renew 10 % of the lifetime early, at most a minute early. */
export function renewAt(obtainedAtMs: number, lifetime: number): number {
  return obtainedAtMs + (lifetime - Math.min(60, lifetime * 0.1)) * 1000;
}
