import { z } from "zod";

import { CONNECTION_ID_PATTERN, ENVIRONMENTS } from "@/lib/connections/types";

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
  .regex(/^[\x21-\x7e]+$/, "must be one word of printable characters");

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
  partners: partnersAccountSchema.optional(),
});
export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;

/** One change at a time: a rename, a new key (rotation), a partners account, or retirement. */
export const updateConnectionSchema = z
  .object({
    name: name.optional(),
    coreApiKey: coreApiKey.optional(),
    partners: partnersAccountSchema.nullable().optional(),
    retire: z.literal(true).optional(),
  })
  .strict()
  .refine((value) => Object.keys(value).length > 0, { error: "name one change: name, coreApiKey, partners or retire" });
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;
