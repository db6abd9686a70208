import { useMutation } from "@tanstack/react-query";

import type { ChangePasswordInput } from "@/lib/auth/validation";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";
import { changePassword } from "@/lib/staff/requests";

/*
 * Staff accounts in react-query: the key under which a member's sessions and connections are cached while their
 * dialog is open, and the password change. The requests themselves are in ./requests.ts.
 */

export const staffKeys = { all: ["staff"] as const };

export function useChangePasswordMutation() {
  return useMutation<void, ApiRequestError, ChangePasswordInput>({ mutationFn: changePassword });
}
