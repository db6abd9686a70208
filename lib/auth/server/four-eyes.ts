import "server-only";

import { sql, type Column, type SQL } from "drizzle-orm";

import { config } from "@/lib/config";
import { AppError } from "@/lib/shared/errors";

import { staffUsers } from "./tables";

/*
 * Four eyes between people who predate the request (docs/security.md#four-eyes-between-people-who-predate-the-request):
 * a second person's confirmation (an erasure, a case outcome) does not count when the requester made that person's
 * access: created the account, re-enabled it or gave it its current role after the request, or within
 * FOUR_EYES_INDEPENDENCE_HOURS before it. The staff store keeps who did each and when (staff_users.created_by,
 * enabled_by, role_given_by and their times, migration 0016).
 */

/** 409 `confirmer_not_independent`: the requester gave the confirmer their access too recently. */
export class ConfirmerNotIndependentError extends AppError {
  constructor() {
    super(
      "confirmer_not_independent",
      "The requester created your account, re-enabled it or gave you your role after the request or shortly before it: another member must confirm.",
    );
    this.name = "ConfirmerNotIndependentError";
  }
}

/**
 * SQL, true when the requester gave the confirmer's account its access at the request's time minus the window or
 * later. `requester` and `requestedAt` are columns of the request's row (or values), so a conditional UPDATE can
 * carry the rule.
 */
export function accessGivenByRequester(confirmerId: string, requester: Column | SQL, requestedAt: Column | SQL): SQL {
  const since = sql`(${requestedAt} - make_interval(hours => ${config().fourEyesIndependenceHours}::int))`;
  return sql`exists (select 1 from ${staffUsers} where ${staffUsers.id} = ${confirmerId} and (
    (${staffUsers.createdBy} = ${requester} and ${staffUsers.createdAt} >= ${since})
    or (${staffUsers.enabledBy} = ${requester} and ${staffUsers.enabledAt} >= ${since})
    or (${staffUsers.roleGivenBy} = ${requester} and ${staffUsers.roleGivenAt} >= ${since})))`;
}
