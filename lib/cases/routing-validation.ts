import { z } from "zod";

import { RED_FLAGS } from "@/lib/cases/rules";
import { safeText } from "@/lib/shared/safe-text-schema";

// Input of PUT /api/cases/routing and POST /api/cases/bulk, shared by the admin page, the queue's bulk bar
// and the route handlers. Cross-field rules (a rule's queue must be listed, names unique, the default queue
// kept) are checked here too, so the 400 names the field before anything is written.

export const MAX_QUEUES = 50;
export const MAX_RULES = 100;
export const MAX_BULK = 100;

// Queue names and matched words show to every member: no invisible or text-direction characters (safe-text.ts).
const label = safeText(z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters"));
const values = z.array(safeText(z.string().trim().min(1, "must not be empty").max(80))).max(50);

export const routingConditionsSchema = z
  .object({
    flags: z.array(z.enum(RED_FLAGS)).max(RED_FLAGS.length).optional(),
    flows: values.optional(),
    journeys: values.optional(),
    minRisk: z.number().min(0).max(100).optional(),
    minAgeHours: z
      .number()
      .min(0)
      .max(24 * 365)
      .optional(),
  })
  .strict();

export const routingConfigSchema = z
  .object({
    autoAssign: z.boolean(),
    capacity: z.number().int("must be a whole number").min(1).max(1000),
    queues: z
      .array(
        z
          .object({
            // A new queue carries an id the page made (crypto.randomUUID), so a rule can name it in the same PUT.
            id: z.uuid("must be a queue id"),
            name: label,
            members: z.array(z.object({ userId: z.uuid("must be a staff id"), lead: z.boolean() }).strict()).max(200),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_QUEUES),
    rules: z
      .array(z.object({ id: z.uuid().optional(), queueId: z.uuid("must be a queue id"), conditions: routingConditionsSchema }).strict())
      .max(MAX_RULES),
  })
  .strict()
  .superRefine((config, context) => {
    const ids = new Set<string>();
    const names = new Set<string>();
    config.queues.forEach((queue, index) => {
      if (ids.has(queue.id)) context.addIssue({ code: "custom", path: ["queues", index, "id"], message: "must be listed once" });
      ids.add(queue.id);
      const name = queue.name.toLowerCase();
      if (names.has(name)) context.addIssue({ code: "custom", path: ["queues", index, "name"], message: "must be unique" });
      names.add(name);
      const members = new Set<string>();
      queue.members.forEach((member, at) => {
        if (members.has(member.userId))
          context.addIssue({ code: "custom", path: ["queues", index, "members", at, "userId"], message: "must be listed once" });
        members.add(member.userId);
      });
    });
    config.rules.forEach((rule, index) => {
      if (!ids.has(rule.queueId))
        context.addIssue({ code: "custom", path: ["rules", index, "queueId"], message: "must be one of the queues listed" });
    });
  });
export type RoutingConfigInput = z.infer<typeof routingConfigSchema>;

export const BULK_ACTIONS = ["assign", "unassign", "move"] as const;

export const bulkSchema = z
  .object({
    action: z.enum(BULK_ACTIONS),
    publicIds: z
      .array(z.string().trim().min(1).max(100))
      .min(1, "must name at least one case")
      .max(MAX_BULK, `must name at most ${MAX_BULK} cases`),
    assignee: z.uuid("must be a staff id").optional(),
    queue: z.uuid("must be a queue id").optional(),
  })
  .strict()
  .superRefine((input, context) => {
    if (input.action === "assign" && !input.assignee)
      context.addIssue({ code: "custom", path: ["assignee"], message: "is required to assign" });
    if (input.action === "move" && !input.queue) context.addIssue({ code: "custom", path: ["queue"], message: "is required to move" });
  });
export type BulkInput = z.infer<typeof bulkSchema>;

export const availabilitySchema = z.object({ away: z.boolean() }).strict();
