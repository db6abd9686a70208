import type { StaffUserDto } from "@/lib/auth/types";
import type { ChangePasswordInput } from "@/lib/auth/validation";
import { apiRequest } from "@/lib/shared/api-client/api-request";
import type { InviteStaffInput } from "@/lib/staff/rules";
import type { StaffListEntry } from "@/lib/staff/types";
import type { UpdateStaffInput } from "@/lib/staff/validation";

/*
 * Staff accounts' requests from the browser, with no client cache: the staff page draws the list on the server and
 * each action is a request after which the page is drawn again (components/ui/use-refreshing-request.ts).
 */

export interface InviteStaffResponse {
  user: StaffUserDto;
  oneTimePassword: string;
}

const memberUrl = (id: string) => `/api/staff/${encodeURIComponent(id)}`;

export const inviteStaff = (input: InviteStaffInput) => apiRequest<InviteStaffResponse>("/api/staff", { method: "POST", body: input });
export const updateStaff = ({ id, change }: { id: string; change: UpdateStaffInput }) =>
  apiRequest<{ user: StaffUserDto }>(memberUrl(id), { method: "PATCH", body: change });
export const unlockStaffSignIn = ({ id }: { id: string }) =>
  apiRequest<{ signIn: StaffListEntry["signIn"] }>(`${memberUrl(id)}/unlock`, { method: "POST", body: {} });
export const changePassword = (input: ChangePasswordInput) => apiRequest<void>("/api/account/password", { method: "POST", body: input });
// The DELETE sends an empty JSON object: the route kit refuses (415) a write whose body is not declared JSON.
export const resetStaffFactors = ({ id }: { id: string }) =>
  apiRequest<{ removed: number }>(`${memberUrl(id)}/factors`, { method: "DELETE", body: {} });
export const setStaffSsoOnly = ({ id, ssoOnly }: { id: string; ssoOnly: boolean }) =>
  apiRequest<unknown>(memberUrl(id), { method: "PATCH", body: { ssoOnly } });
