import type { QueueParams } from "@/lib/cases/queue-requests";
import type { CaseQueueResponse, RoutingConfig } from "@/lib/cases/types";
import type { ServerError } from "@/lib/shared/api-client/server-error";

/** What the queue's page read: the view its address asks for, and the server's answer for it. */
export interface QueueView {
  params: QueueParams;
  answer: { data: CaseQueueResponse } | { error: ServerError };
}

/** The members a bulk assignment may name (the routing's staff), read by the page for cases.assign holders only. */
export type QueueStaff = RoutingConfig["staff"];
