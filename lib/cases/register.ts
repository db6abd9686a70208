import "server-only";

import { onVerificationChange } from "@/lib/webhooks/changes";

import { caseListener } from "./ingest";

// Imported by lib/webhooks/listeners.ts: cases follow every verification change the webhooks bring.
onVerificationChange(caseListener);
