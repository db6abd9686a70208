// The sandbox's demo credentials (sandbox/README.md). Only ever used in embedded mode.
export const SANDBOX_DEFAULTS = {
  url: "http://127.0.0.1:4010",
  coreApiKey: "sbx_core_view_media",
  partnersUsername: "backoffice",
  partnersPassword: "sandbox-partner-password",
  partnersDomain: "backoffice.sandbox.local",
  partnersIntegrationToken: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
  // A second integration of the same account, used only in widget addresses (never the lookup token).
  partnersWidgetIntegrationToken: "3d6b9e2a-7c14-4f85-a0d3-5e8f1b2c4a97",
} as const;
