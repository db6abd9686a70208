import { z } from "zod";

import { MAX_FLOWS } from "@/lib/connections/flows";
import { claimsProviderFormat, expiryOfDay, latestExpiry, MAX_GRACE_HOURS, PROVIDER_KEY } from "@/lib/connections/key-life";
import { CONNECTION_ID_PATTERN, ENVIRONMENTS } from "@/lib/connections/types";
import { hasUnsafeTextCharacters, UNSAFE_TEXT_MESSAGE } from "@/lib/shared/safe-text";
import { PUBLIC_ID_PATTERN } from "@/lib/upstream/model/verification-query";

/*
 * What an admin sends to add or change a connection. Shared by the form and the route: the same rules name the
 * same field on both sides. Secrets are plain strings here; the server seals them at once and never answers them.
 */

const name = z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters");
const coreApiKey = z
  .string()
  .trim()
  .min(8, "must be the service's API key (at least 8 characters)")
  .max(512)
  .regex(/^[\x21-\x7e]+$/, "must be one word of printable characters")
  // A key that starts like the provider's must be one of them whole (lib/connections/key-life.ts): a key cut short
  // when pasted is caught here, before the service is asked.
  .refine((key) => !claimsProviderFormat(key) || PROVIDER_KEY.test(key), "must be the provider's format lz_XXXXXXXX_<secret>");

/** The day the key expires (YYYY-MM-DD, as the provider's console shows it): after today, at most two years ahead. */
const coreKeyExpiresAt = z.iso
  .date("must be a date (YYYY-MM-DD)")
  .refine((day) => expiryOfDay(day).getTime() > Date.now(), "must be after today")
  .refine(
    (day) => expiryOfDay(day).getTime() <= latestExpiry(new Date()).getTime(),
    "must be at most two years ahead (the provider's limit)",
  );

/** A connection's flows (lib/connections/flows.ts): each a flow id with a label, none twice. */
const flow = z.object({
  id: z.string().trim().regex(PUBLIC_ID_PATTERN, "must be a flow id (letters, digits, _ or -, at most 128)"),
  label: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(80, "must be at most 80 characters")
    .refine((label) => !hasUnsafeTextCharacters(label), UNSAFE_TEXT_MESSAGE),
});

export const connectionFlowsSchema = z
  .array(flow)
  .max(MAX_FLOWS, `must be at most ${MAX_FLOWS} flows`)
  .refine((flows) => new Set(flows.map((item) => item.id)).size === flows.length, "must not name a flow twice");

export const partnersAccountSchema = z.object({
  username: z.string().trim().min(1, "must not be empty").max(256),
  password: z.string().min(1, "must not be empty").max(512),
  domain: z.string().trim().min(1, "must not be empty").max(253),
  integrationToken: z.string().trim().min(8, "must be the integration key (at least 8 characters)").max(512),
});

export const createConnectionSchema = z.object({
  id: z
    .string()
    .trim()
    .regex(CONNECTION_ID_PATTERN, "must be lower-case letters, digits and - (at most 40), starting with a letter or digit")
    .optional(),
  name,
  environment: z.enum(ENVIRONMENTS, { error: "must be sandbox or production" }),
  integration: z.string().trim().min(1).max(120).optional(),
  coreApiKey,
  coreKeyExpiresAt: coreKeyExpiresAt.optional(),
  flows: connectionFlowsSchema.optional(),
  partners: partnersAccountSchema.optional(),
});
export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;

/**
 * One change at a time: a rename, a new key (rotation, with the new key's expiry and the grace the provider gives the
 * old one), the key's stated expiry alone, a partners account, or retirement.
 */
export const updateConnectionSchema = z
  .object({
    name: name.optional(),
    coreApiKey: coreApiKey.optional(),
    coreKeyExpiresAt: coreKeyExpiresAt.optional(),
    graceHours: z.int("must be a whole number of hours").min(0).max(MAX_GRACE_HOURS, "must be at most 168 hours (7 days)").optional(),
    flows: connectionFlowsSchema.optional(),
    partners: partnersAccountSchema.nullable().optional(),
    retire: z.literal(true).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, {
    error: "name one change: name, coreApiKey, coreKeyExpiresAt, flows, partners or retire",
  })
  .refine((value) => value.graceHours === undefined || value.coreApiKey !== undefined, {
    error: "a grace period goes with a new key (coreApiKey)",
    path: ["graceHours"],
  });
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;
