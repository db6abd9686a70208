import "server-only";

import { currentConnectionId } from "@/lib/upstream/account";
import { onVerificationChange } from "@/lib/webhooks/server/changes";

import { applyMirrorStatus } from "./mirror";

// Imported where the webhook processor runs (the receiving route, instrumentation.ts): the overview's status mirror
// follows every status the service's events bring, under the event's connection (the processor binds it).
onVerificationChange((db, change) => applyMirrorStatus(db, currentConnectionId(), change));
