import type { Permission } from "@/lib/auth/permissions";

/** The signed-in member as the case panel needs them: who, and what they may do. */
export interface Viewer {
  id: string;
  permissions: readonly Permission[];
}
