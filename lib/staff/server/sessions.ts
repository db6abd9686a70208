import "server-only";

import { groupByDevice } from "@/lib/account/server/devices";
import type { DeviceView } from "@/lib/account/types";
import { listLiveSessions } from "@/lib/auth/server/sessions";
import { getStaff } from "@/lib/auth/server/staff-store";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/** A member's live sessions as an admin sees them: once per device, as the member sees their own (lib/account). */
export async function memberDevices(db: Database, userId: string): Promise<DeviceView[]> {
  if (!(await getStaff(db, userId))) throw new AppError("not_found", "No such staff member.");
  return groupByDevice(await listLiveSessions(db, userId));
}
