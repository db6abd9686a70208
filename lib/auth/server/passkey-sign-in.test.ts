import { randomBytes } from "node:crypto";

import { and, eq, sql } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";

import { POST as signInOptions } from "@/app/api/auth/passkey/options/route";
import { passkeyRegistrationOptions, registerPasskey } from "@/lib/account/server/factors";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { PEER_HEADER } from "@/lib/shared/client-address";
import { apiRequest, createTestStaff } from "@/test/auth";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";
import { softwareAuthenticator } from "@/test/webauthn";

import { MAX_PENDING_SIGN_IN_CHALLENGES, passkeyAuthenticationOptions, SIGN_IN_OPTIONS_PER_MINUTE } from "./factors";
import { startSession } from "./sessions";
import { attemptPasskeySignIn } from "./sign-in";
import { updateStaff } from "./staff-store";
import { authChallenges } from "./tables";
import { ADDRESS_FAILURE_LIMIT, FAILURE_WINDOW_MS } from "./throttle";
import { CHALLENGE_TTL_MS, relyingParty } from "./webauthn";

/*
 * Signing in with a passkey alone answers to what the password path checks of the account (a disabled account, a
 * single-sign-on-only member unless SSO_ONLY_PASSKEYS, the address's attempt budget), and its options, which anyone
 * may ask for and which each store a challenge, are limited per client address and in all.
 */

const rp = relyingParty({ host: "localhost:3000" });
const context = { actor: null, ip: "127.0.0.1", pageView: "test" } as unknown as RequestContext;
const notices = { within: async () => undefined, after: () => undefined };
let addressCounter = 0;
const freshAddress = () => `2001:db8:${(addressCounter += 1).toString(16)}::1`;

describeEachDatabase("passkey sign-in on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);

  afterEach(() => {
    vi.useRealTimers();
    stubConfigEnv({ SSO_ONLY_PASSKEYS: "off" });
  });

  /** The clock (Date only) at the start of a fresh counting window, so a test's counts never straddle two. */
  function atWindowStart(windowMs: number) {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Math.ceil(Date.now() / windowMs) * windowMs + 1000);
  }

  /** A member holding a passkey made by a software authenticator. */
  async function memberWithPasskey() {
    const staff = await createTestStaff(handle.db);
    const sessionId = await startSession(handle.db, { userId: staff.id, email: staff.email, method: "password", ip: null });
    const member = { id: staff.id, email: staff.email, name: staff.name, sessionId };
    const authenticator = softwareAuthenticator();
    const response = authenticator.register(await passkeyRegistrationOptions(handle.db, member, rp), rp.origin);
    await registerPasskey(handle.db, member, { label: "Key", response }, rp, { context, notices });
    return { staff, authenticator };
  }

  async function signIn(authenticator: ReturnType<typeof softwareAuthenticator>, address = freshAddress()) {
    // The options' own limit is per address too (tested below): asked here from an address of their own.
    const options = await passkeyAuthenticationOptions(handle.db, { rp, address: freshAddress() });
    return attemptPasskeySignIn(handle.db, {
      response: authenticator.authenticate(options, rp.origin),
      rp,
      address,
      allowDemoAccounts: false,
    });
  }

  async function reasonsFor(userId: string) {
    const rows = await handle.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.sign_in"), eq(auditEvents.target, userId)));
    return rows.map((row) => row.details.reason);
  }

  it("signs in an active member with their passkey", async () => {
    const { staff, authenticator } = await memberWithPasskey();
    expect(await signIn(authenticator)).toEqual({
      status: "ok",
      user: { id: staff.id, email: staff.email, name: staff.name, role: staff.role },
    });
  });

  it("refuses a single-sign-on-only member's passkey unless SSO_ONLY_PASSKEYS is on, and a disabled member's, on the trail", async () => {
    const sso = await memberWithPasskey();
    await updateStaff(handle.db, sso.staff.id, { ssoOnly: true });
    expect(await signIn(sso.authenticator)).toEqual({ status: "invalid" });
    expect(await reasonsFor(sso.staff.id)).toContain("sso_only");
    stubConfigEnv({ SSO_ONLY_PASSKEYS: "on" });
    expect((await signIn(sso.authenticator)).status).toBe("ok");

    const disabled = await memberWithPasskey();
    await updateStaff(handle.db, disabled.staff.id, { disabled: true });
    expect(await signIn(disabled.authenticator)).toEqual({ status: "invalid" });
    expect(await reasonsFor(disabled.staff.id)).toContain("disabled");
  });

  it("counts refused passkeys against the address, as wrong passwords: past the budget the address is refused", async () => {
    atWindowStart(FAILURE_WINDOW_MS);
    const { authenticator } = await memberWithPasskey();
    const address = freshAddress();
    const stranger = softwareAuthenticator();
    for (let tried = 0; tried < ADDRESS_FAILURE_LIMIT; tried += 1) expect((await signIn(stranger, address)).status).toBe("invalid");
    const locked = await signIn(authenticator, address);
    expect(locked).toMatchObject({ status: "locked", scope: "address" });
    expect((await signIn(authenticator)).status).toBe("ok");
  });

  it("gives one client address a few sign-in options a minute (429 past them), another address its own", async () => {
    const ask = (address: string) =>
      signInOptions(apiRequest("/api/auth/passkey/options", { method: "POST", headers: { [PEER_HEADER]: address } }));
    atWindowStart(60_000);
    const address = freshAddress();
    for (let asked = 0; asked < SIGN_IN_OPTIONS_PER_MINUTE; asked += 1) expect((await ask(address)).status).toBe(200);
    const refused = await ask(address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await ask(freshAddress())).status).toBe(200);
  });

  it("stores no more than MAX_PENDING_SIGN_IN_CHALLENGES sign-in challenges at once; expired ones make room", async () => {
    await handle.db.delete(authChallenges).where(eq(authChallenges.purpose, "passkey_sign_in"));
    const expiresAt = new Date(Date.now() + CHALLENGE_TTL_MS);
    const filler = Array.from({ length: MAX_PENDING_SIGN_IN_CHALLENGES }, () => ({
      id: randomBytes(16).toString("base64url"),
      purpose: "passkey_sign_in" as const,
      challenge: randomBytes(16).toString("base64url"),
      expiresAt,
    }));
    for (let start = 0; start < filler.length; start += 500)
      await handle.db.insert(authChallenges).values(filler.slice(start, start + 500));
    await expect(passkeyAuthenticationOptions(handle.db, { rp, address: freshAddress() })).rejects.toMatchObject({ code: "rate_limited" });
    const [stored] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(authChallenges)
      .where(eq(authChallenges.purpose, "passkey_sign_in"));
    expect(stored?.n).toBe(MAX_PENDING_SIGN_IN_CHALLENGES);
    // Once they expire, they are swept before the count: sign-in options are given again.
    const later = new Date(Date.now() + CHALLENGE_TTL_MS + 1000);
    await expect(passkeyAuthenticationOptions(handle.db, { rp, address: freshAddress() }, later)).resolves.toHaveProperty("challenge");
  });
});
