import "server-only";
/*
 * Every consumer of verification changes registers here, with one import of its registration module
 * (which calls onVerificationChange). The processor imports this file, so listeners are in place in
 * every process and entry that processes deliveries.
 */

import "@/lib/cases/server/register";
