import "server-only";

import { onVerificationChange } from "@/lib/webhooks/server/changes";

import { caseListener } from "./ingest";

// Imported where the webhook processor runs (the receiving route, instrumentation.ts): cases follow every
// verification change the webhooks bring.
onVerificationChange(caseListener);
