import "server-only";

import { audited, type RequestContext } from "@/lib/audit-trail/server";
import { DEFAULT_GRACE_HOURS } from "@/lib/connections/key-life";
import { probeKey } from "@/lib/connections/server/probe";
import { insertConnection, liveConnection, recordTest, summaryOf, updateConnection } from "@/lib/connections/server/store";
import type { StoredCapabilities } from "@/lib/connections/server/tables";
import type { ConnectionSummary } from "@/lib/connections/types";
import type { CreateConnectionInput, UpdateConnectionInput } from "@/lib/connections/validation";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/*
 * What admins do to connections (integrations.manage, step-up: the routes say so), each on the audit trail with
 * the connection's id, name and environment, never a secret. A new key is tested before it is kept: a key the
 * service refuses is a 400 naming `coreApiKey`, so a typo never replaces a working key.
 */

function refusedKey(capabilities: StoredCapabilities): AppError | null {
  if (capabilities.problem === "upstream_unauthorized" || capabilities.problem === "upstream_forbidden") {
    return new AppError("validation", "The service refused this key: check it and its read permission ('Ver verificações').", {
      fields: ["coreApiKey"],
    });
  }
  return null;
}

async function testedKey(coreApiKey: string): Promise<StoredCapabilities> {
  const capabilities = await probeKey(coreApiKey);
  const refusal = refusedKey(capabilities);
  if (refusal) throw refusal;
  return capabilities;
}

export async function addConnection(db: Database, context: RequestContext, input: CreateConnectionInput): Promise<ConnectionSummary> {
  const spec = {
    action: "connection.create",
    details: {
      name: input.name,
      environment: input.environment,
      partners: input.partners !== undefined,
      ...(input.flows?.length ? { flows: input.flows.map((flow) => flow.id).join(" ") } : {}),
    },
    targetOf: (created: ConnectionSummary) => ({ type: "connection", id: created.id }),
  };
  return audited(context, spec, async () => summaryOf(await insertConnection(db, input, await testedKey(input.coreApiKey)), null));
}

export async function changeConnection(
  db: Database,
  context: RequestContext,
  id: string,
  input: UpdateConnectionInput,
): Promise<ConnectionSummary> {
  // The weightiest change names the event (a body may carry a rename with a new key).
  let action = "connection.rename";
  if (input.flows) action = "connection.flows";
  if (input.partners !== undefined) action = "connection.partners";
  if (input.coreKeyExpiresAt) action = "connection.key_expiry";
  if (input.coreApiKey) action = "connection.rotate";
  if (input.retire) action = "connection.retire";
  const spec = {
    action,
    target: { type: "connection", id },
    details: {
      ...(input.name ? { name: input.name } : {}),
      ...(input.partners !== undefined ? { partners: input.partners !== null } : {}),
      ...(input.coreKeyExpiresAt ? { keyExpiresAt: input.coreKeyExpiresAt } : {}),
      ...(input.flows ? { flows: input.flows.map((flow) => flow.id).join(" ") } : {}),
      ...(input.coreApiKey ? { graceHours: input.graceHours ?? DEFAULT_GRACE_HOURS } : {}),
    },
  };
  return audited(context, spec, async () => {
    await liveConnection(db, id);
    const capabilities = input.coreApiKey ? await testedKey(input.coreApiKey) : null;
    return summaryOf(await updateConnection(db, id, input, capabilities), null);
  });
}

export async function testConnection(db: Database, context: RequestContext, id: string): Promise<ConnectionSummary> {
  return audited(context, { action: "connection.test", target: { type: "connection", id } }, async () => {
    const connection = await liveConnection(db, id);
    return summaryOf(await recordTest(db, id, await probeKey(connection.account.coreApiKey)), null);
  });
}
