import "server-only";

import { config } from "@/lib/config";
import { clientAddress } from "@/lib/shared/client-address";

/** Who acted, from where: the one request-context type every audited action takes. */
export interface RequestContext {
  /** Null when nobody is signed in (a failed sign-in, a webhook) or the system acted. */
  actor: { id: string; email: string } | null;
  /** The request's client address (lib/shared/client-address.ts), behind the configured trusted proxies. */
  ip: string | null;
}

/** The context of a request made by `user` (or by nobody). */
export function requestContext(user: { id: string; email: string } | null, headers: Headers): RequestContext {
  return {
    actor: user ? { id: user.id, email: user.email } : null,
    ip: clientAddress(headers, config().trustedProxies),
  };
}
