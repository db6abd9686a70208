import type { RoleRef } from "./roles";

// What the session cookie's JWT carries besides next-auth's defaults.
declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    sid?: string;
    role?: RoleRef;
    /** How the session began: an OIDC session is also ended at the provider on sign-out. */
    method?: "password" | "oidc" | "passkey";
  }
}
