import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import Provider, { type Configuration } from "oidc-provider";

/*
 * A real OpenID provider for the browser tests: the `oidc-provider` package (OpenID Certified) in its
 * default configuration, with only what any deployment must add: the dashboard as a client, which claims
 * the standard scopes release, and the test accounts. By default it is specification-conformant: in the
 * code flow the scope claims (email, email_verified, name) are served by userinfo, not put in the ID token.
 * `emailInIdToken` turns that off (`conformIdTokenClaims: false`), as many providers behave.
 *
 * Its built-in development login page accepts any login and password; the login is the account id and
 * the subject (`sub`). Tests register each login's claims first, over HTTP, so every worker can:
 *
 *   PUT  /test/accounts/<login>   JSON claims (email, email_verified, name): served for that login
 *   POST /test/tamper/<login>     the next ID token issued to that login has its payload altered after
 *                                 signing (it claims an admin's email), as a man in the middle would
 *   GET  /test/userinfo-calls/<login>   how many userinfo answers that login got: {calls}
 */

export interface TestOidcProviderOptions {
  port?: number;
  clientId: string;
  clientSecret: string;
  /** The dashboard's address, e.g. http://localhost:3103: its callback and sign-in page are registered. */
  appUrl: string;
  emailInIdToken: boolean;
}

export interface TestOidcProvider {
  issuer: string;
  close(): Promise<void>;
}

type Claims = Record<string, unknown>;

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

function claimsOf(jwt: string): Claims {
  return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as Claims;
}

/** The same ID token with its payload changed and the original signature kept. */
function tamper(idToken: string): string {
  const [header, , signature] = idToken.split(".");
  const forged = { ...claimsOf(idToken), email: "admin@sandbox.local", email_verified: true };
  return [header, Buffer.from(JSON.stringify(forged)).toString("base64url"), signature].join(".");
}

export async function startTestOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const accounts = new Map<string, Claims>();
  const tamperFor = new Set<string>();
  const userinfoCalls = new Map<string, number>();

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [`${options.appUrl}/api/auth/callback/oidc`],
        post_logout_redirect_uris: [`${options.appUrl}/sign-in`],
      },
    ],
    // The standard scope-to-claims mapping (OpenID Connect Core 5.4), limited to what the dashboard asks.
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: !options.emailInIdToken,
    cookies: { keys: [randomBytes(32).toString("hex")] },
    async findAccount(_context, id) {
      const claims = accounts.get(id);
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ ...claims, sub: id }) };
    },
  };
  const provider = new Provider(issuer, configuration);

  provider.use(async (context, next) => {
    const login = /^\/test\/accounts\/([^/]+)$/.exec(context.path)?.[1];
    if (login && context.method === "PUT") {
      accounts.set(decodeURIComponent(login), (await readJson(context.req)) as Claims);
      context.status = 204;
      return;
    }
    const tampered = /^\/test\/tamper\/([^/]+)$/.exec(context.path)?.[1];
    if (tampered && context.method === "POST") {
      tamperFor.add(decodeURIComponent(tampered));
      context.status = 204;
      return;
    }
    const counted = /^\/test\/userinfo-calls\/([^/]+)$/.exec(context.path)?.[1];
    if (counted && context.method === "GET") {
      context.body = { calls: userinfoCalls.get(decodeURIComponent(counted)) ?? 0 };
      return;
    }
    await next();
    const served = context.body as { sub?: unknown } | undefined;
    if (context.path === "/me" && context.status === 200 && typeof served?.sub === "string") {
      userinfoCalls.set(served.sub, (userinfoCalls.get(served.sub) ?? 0) + 1);
    }
    const body = context.body as { id_token?: unknown } | undefined;
    if (context.path !== "/token" || typeof body?.id_token !== "string") return;
    const subject = claimsOf(body.id_token).sub;
    if (typeof subject === "string" && tamperFor.delete(subject)) context.body = { ...body, id_token: tamper(body.id_token) };
  });

  server.on("request", provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
