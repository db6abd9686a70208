import { eq } from "drizzle-orm";
import { expect, it } from "vitest";

import { passkeyRegistrationOptions, registerPasskey } from "@/lib/account/server/factors";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { createTestStaff } from "@/test/auth";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";
import { softwareAuthenticator } from "@/test/webauthn";

import { passkeyAuthenticationOptions, verifyPasskey, type FactorNotices } from "./factors";
import { startSession } from "./sessions";
import { authChallenges, staffFactors } from "./tables";
import { relyingParty } from "./webauthn";

/*
 * The passkey server code against real WebAuthn answers: a software authenticator (test/webauthn.ts: an ES256 key
 * pair, "none" attestation) registers and signs, and @simplewebauthn/server checks it all as for a browser. A
 * challenge works once, for the purpose, member and session it was made for.
 */

const rp = relyingParty({ host: "localhost:3000" });
const context = { actor: null, ip: "127.0.0.1", pageView: "test" } as unknown as RequestContext;

describeEachDatabase("passkeys (webauthn) on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withDatabase(open);
  const told: Array<{ userId: string; change: string }> = [];
  const notices: FactorNotices = {
    within: async (_tx, notice) => void told.push(notice),
    after: () => undefined,
  };

  /** A member with a live session, as the routes hand them to the factor functions. */
  async function member() {
    const staff = await createTestStaff(handle.db);
    const sessionId = await startSession(handle.db, { userId: staff.id, email: staff.email, method: "password", ip: "127.0.0.1" });
    return { id: staff.id, email: staff.email, name: staff.name, sessionId };
  }

  async function enrol(who: Awaited<ReturnType<typeof member>>) {
    const authenticator = softwareAuthenticator();
    const options = await passkeyRegistrationOptions(handle.db, who, rp);
    const response = authenticator.register(options, rp.origin);
    const result = await registerPasskey(handle.db, who, { label: "Laptop", response }, rp, { context, notices });
    return { authenticator, result, response };
  }

  it("registers a passkey from real creation options: verified, stored, told to the member, with the first recovery codes", async () => {
    const who = await member();
    const { authenticator, result } = await enrol(who);
    expect(result.factor).toMatchObject({ kind: "passkey", label: "Laptop", confirmed: true });
    expect(result.recoveryCodes).toHaveLength(10);
    const [row] = await handle.db.select().from(staffFactors).where(eq(staffFactors.id, result.factor.id));
    expect(row).toMatchObject({ userId: who.id, credentialId: authenticator.credentialId, signCount: 0 });
    expect(told).toContainEqual(expect.objectContaining({ userId: who.id, change: "added" }));
  });

  it("signs in with the passkey over a sign-in challenge, moving its counter on", async () => {
    const who = await member();
    const { authenticator, result } = await enrol(who);
    const options = await passkeyAuthenticationOptions(handle.db, { rp, address: "192.0.2.10" });
    const proved = await verifyPasskey(handle.db, { response: authenticator.authenticate(options, rp.origin), rp });
    expect(proved).toEqual({ userId: who.id, factorId: result.factor.id });
    const [row] = await handle.db.select().from(staffFactors).where(eq(staffFactors.id, result.factor.id));
    expect(row?.signCount).toBe(1);
    expect(row?.lastUsedAt).not.toBeNull();
  });

  it("refuses a replayed answer: the challenge works once, for sign-in and for registration", async () => {
    const who = await member();
    const { authenticator, response } = await enrol(who);
    const options = await passkeyAuthenticationOptions(handle.db, { rp, address: "192.0.2.11" });
    const signed = authenticator.authenticate(options, rp.origin);
    expect(await verifyPasskey(handle.db, { response: signed, rp })).not.toBeNull();
    expect(await verifyPasskey(handle.db, { response: signed, rp })).toBeNull();
    // The registration's challenge was taken too: the same answer again is refused, naming the field.
    await expect(registerPasskey(handle.db, who, { label: "Again", response }, rp, { context, notices })).rejects.toMatchObject({
      code: "validation",
      fields: ["response"],
    });
  });

  it("refuses a foreign challenge: another member's, another session's, or one made for another purpose", async () => {
    const owner = await member();
    const other = await member();
    const { authenticator } = await enrol(owner);

    // Creation options made for another member cannot register a passkey for this one.
    const othersOptions = await passkeyRegistrationOptions(handle.db, other, rp);
    const stranger = softwareAuthenticator();
    await expect(
      registerPasskey(handle.db, owner, { label: "Theirs", response: stranger.register(othersOptions, rp.origin) }, rp, {
        context,
        notices,
      }),
    ).rejects.toMatchObject({ code: "validation" });

    // A step-up challenge of the owner's other session does not confirm this session.
    const elsewhere = {
      ...owner,
      sessionId: await startSession(handle.db, { userId: owner.id, email: owner.email, method: "password", ip: null }),
    };
    const stepUpElsewhere = await passkeyAuthenticationOptions(handle.db, { member: elsewhere, rp });
    const signedElsewhere = authenticator.authenticate(stepUpElsewhere, rp.origin);
    expect(await verifyPasskey(handle.db, { response: signedElsewhere, rp, userId: owner.id, sessionId: owner.sessionId })).toBeNull();
    // …and was not spent by that refusal: in its own session it works.
    expect(
      await verifyPasskey(handle.db, { response: signedElsewhere, rp, userId: owner.id, sessionId: elsewhere.sessionId }),
    ).not.toBeNull();

    // Another member's step-up challenge, signed by the owner's passkey: refused.
    await enrol(other);
    const othersStepUp = await passkeyAuthenticationOptions(handle.db, { member: other, rp });
    expect(
      await verifyPasskey(handle.db, { response: authenticator.authenticate(othersStepUp, rp.origin), rp, userId: owner.id }),
    ).toBeNull();

    // A sign-in challenge is no step-up challenge, and the reverse.
    const signIn = await passkeyAuthenticationOptions(handle.db, { rp, address: "192.0.2.12" });
    expect(
      await verifyPasskey(handle.db, {
        response: authenticator.authenticate(signIn, rp.origin),
        rp,
        userId: owner.id,
        sessionId: owner.sessionId,
      }),
    ).toBeNull();
    const stepUp = await passkeyAuthenticationOptions(handle.db, { member: owner, rp });
    expect(await verifyPasskey(handle.db, { response: authenticator.authenticate(stepUp, rp.origin), rp })).toBeNull();

    // A challenge this dashboard never issued.
    expect(
      await verifyPasskey(handle.db, { response: authenticator.authenticate({ challenge: "bm90LWlzc3VlZA" }, rp.origin), rp }),
    ).toBeNull();
  });

  it("refuses an answer made for another origin or without user verification", async () => {
    const who = await member();
    const options = await passkeyRegistrationOptions(handle.db, who, rp);
    await expect(
      registerPasskey(handle.db, who, { label: "Phish", response: softwareAuthenticator().register(options, "http://evil.test") }, rp, {
        context,
        notices,
      }),
    ).rejects.toMatchObject({ code: "validation" });
    const again = await passkeyRegistrationOptions(handle.db, who, rp);
    const unverified = softwareAuthenticator({ userVerified: false });
    await expect(
      registerPasskey(handle.db, who, { label: "No PIN", response: unverified.register(again, rp.origin) }, rp, { context, notices }),
    ).rejects.toMatchObject({ code: "validation" });
    expect(await handle.db.select().from(staffFactors).where(eq(staffFactors.userId, who.id))).toEqual([]);
    // Both challenges were spent on the refusals.
    expect(await handle.db.select().from(authChallenges).where(eq(authChallenges.userId, who.id))).toEqual([]);
  });
});
