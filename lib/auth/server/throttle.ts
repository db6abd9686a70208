import "server-only";

import { createHmac } from "node:crypto";
import { isIPv6 } from "node:net";

import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { clearKeys, consumeUpTo, countsUnder, giveBack } from "@/lib/db/rate-limit";

/*
 * Sign-in throttling (docs/security.md "Lockout policy"). Every password check first takes a slot, in one
 * conditional upsert per counter, so however many guesses arrive at once (on however many instances), no more
 * than the limit are ever checked:
 * - an account AND address pair: a few failures, then that address waits out the window for that account
 *   only, so whoever guesses locks themselves out, not the account's owner signing in from elsewhere;
 * - an address trying many accounts (spraying), with a wider budget, since an office behind one NAT
 *   address shares it;
 * - the account from every address together: past its limit the password form refuses the account for the
 *   rest of the window, from anywhere; its owner can still sign in with a passkey (a second factor first), or
 *   wait, and an admin can lift it (unlockSignIn, on the trail). Nobody is locked out for good.
 * IPv6 addresses count by their /64 (one subscriber's network), IPv4 by the address.
 * A success gives the slots back. The account is the email typed, known or not, under a keyed hash: the
 * counters say nothing about which accounts exist, and the text (sometimes a password typed into the wrong
 * box) is never stored. Counters live in the database, so every instance sees the same counts.
 * The hash is keyed with the AUDIT_HASH_SECRET ring's current key only, so a rotation of that key starts the
 * account counters of the running 15-minute window afresh (and lifts a lock in force): at most one more
 * window's budget per account, once, at a moment an attacker does not choose, against summing every key's
 * counters on each attempt. Rotate outside an ongoing attack on sign-in
 * (docs/operations.md, "Rotating a key"). The address counters carry no hash and are untouched.
 */

export const FAILURE_WINDOW_MS = 15 * 60_000;
export const PAIR_FAILURE_LIMIT = 5;
export const ADDRESS_FAILURE_LIMIT = 20;
export const ACCOUNT_FAILURE_LIMIT = 10;

const accountHash = (email: string) =>
  createHmac("sha256", config().secrets.auditHash.current.secret).update(`sign-in-account:${email}`).digest("hex").slice(0, 40);
const accountKey = (email: string) => `sign-in:account:${accountHash(email)}`;
const pairPrefix = (email: string) => `sign-in:pair:${accountHash(email)}:`;
const pairKey = (email: string, address: string) => `${pairPrefix(email)}${addressGroup(address)}`;
const addressKey = (address: string) => `sign-in:address:${addressGroup(address)}`;

/** The address as the throttle counts it: IPv6 by its /64, an IPv4-mapped IPv6 address as IPv4. */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(":")}::/64`;
}

function currentWindow(now: Date) {
  const start = new Date(Math.floor(now.getTime() / FAILURE_WINDOW_MS) * FAILURE_WINDOW_MS);
  return { start, end: new Date(start.getTime() + FAILURE_WINDOW_MS) };
}

export type SignInLockScope = "account_address" | "address" | "account";

export type SignInSlot =
  | { allowed: true; settle: (outcome: "success" | "failure") => Promise<void> }
  | { allowed: false; retryAfterMs: number; scope: SignInLockScope };

/**
 * Takes one attempt from each counter before a password is checked; refused (nothing taken) when any is spent.
 * `settle("success")` gives the attempt back and starts the account and this address afresh on it.
 */
export async function takeSignInAttempt(
  db: Database,
  { email, address }: { email: string; address: string },
  now = new Date(),
): Promise<SignInSlot> {
  const { start, end } = currentWindow(now);
  const counters: Array<[SignInLockScope, string, number]> = [
    ["account_address", pairKey(email, address), PAIR_FAILURE_LIMIT],
    ["address", addressKey(address), ADDRESS_FAILURE_LIMIT],
    ["account", accountKey(email), ACCOUNT_FAILURE_LIMIT],
  ];
  const taken: string[] = [];
  for (const [scope, key, limit] of counters) {
    const slot = await consumeUpTo(db, key, { amount: 1, limit, start, end });
    if (!slot.allowed) {
      for (const done of taken) await giveBack(db, done, start, 1);
      return { allowed: false, retryAfterMs: end.getTime() - now.getTime(), scope };
    }
    taken.push(key);
  }
  return {
    allowed: true,
    settle: async (outcome) => {
      if (outcome === "failure") return;
      await clearKeys(db, [accountKey(email), pairKey(email, address)]);
      await giveBack(db, addressKey(address), start, 1);
    },
  };
}

/**
 * For a passkey sign-in, which names no account before it is checked: one attempt from the address's counter (the
 * one password guesses spend too), refused when it is spent. The account-wide lock stays a password lock: its
 * owner's passkey still signs them in (a passkey cannot be guessed, and a guesser must not lock the owner out).
 */
export async function takeAddressAttempt(db: Database, address: string, now = new Date()): Promise<SignInSlot> {
  const { start, end } = currentWindow(now);
  const key = addressKey(address);
  const slot = await consumeUpTo(db, key, { amount: 1, limit: ADDRESS_FAILURE_LIMIT, start, end });
  if (!slot.allowed) return { allowed: false, retryAfterMs: end.getTime() - now.getTime(), scope: "address" };
  return {
    allowed: true,
    settle: async (outcome) => {
      if (outcome === "success") await giveBack(db, key, start, 1);
    },
  };
}

export interface SignInBlock {
  /** When the account's refusals end (from some addresses, or from all), or null when none is in force. */
  lockedUntil: Date | null;
  /** Address groups refused for this account (an admin sees where the guessing came from). */
  lockedAddresses: string[];
  /** Failures in the current window, from anywhere. */
  recentFailures: number;
  /** The account-wide limit is reached: the password form refuses it from every address. */
  accountLocked: boolean;
}

/** What currently holds an account back, for the staff page. */
export async function signInBlock(db: Database, email: string, now = new Date()): Promise<SignInBlock> {
  const { start, end } = currentWindow(now);
  const [pairs, account] = await Promise.all([countsUnder(db, pairPrefix(email), start), countsUnder(db, accountKey(email), start)]);
  const recentFailures = account.find((entry) => entry.key === accountKey(email))?.count ?? 0;
  const lockedAddresses = pairs
    .filter((entry) => entry.count >= PAIR_FAILURE_LIMIT)
    .map((entry) => entry.key.slice(pairPrefix(email).length));
  const accountLocked = recentFailures >= ACCOUNT_FAILURE_LIMIT;
  return { lockedUntil: accountLocked || lockedAddresses.length > 0 ? end : null, lockedAddresses, recentFailures, accountLocked };
}

/** Lifts every refusal of the account, from every address (an admin's unlock). */
export async function unlockSignIn(db: Database, email: string): Promise<void> {
  await clearKeys(db, [accountKey(email)], [pairPrefix(email)]);
}
