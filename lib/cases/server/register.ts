import "server-only";

import { onVerificationChange } from "@/lib/webhooks/server/changes";

import { caseListener } from "./ingest";

// Imported by lib/webhooks/server/listeners.ts: cases follow every verification change the webhooks bring.
onVerificationChange(caseListener);
