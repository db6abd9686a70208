#!/usr/bin/env node
// Starts the dashboard from the unpacked archive of `npm run package` (this file is its start.mjs): Node alone, no
// source tree, no npm, no dev dependencies.
//
//   node --max-old-space-size=192 start.mjs
//
// server.js beside this file is Next's standalone server; it runs from this folder, so relative paths (DATA_DIR's
// default `.data`) land here: set DATA_DIR outside it (the systemd unit does). On start it applies the database
// migrations (lib/db/migrations here; several instances starting together apply each once) before it answers, seeds
// the demo accounts in the embedded default, and stops gracefully on SIGTERM (docs/operations.md "Graceful
// shutdown"). The configuration is the environment, as .env.example (beside this file) documents it; this script
// reads only HOST and PORT:
//
//   HOST   the address to listen on, default 127.0.0.1 (HOST=0.0.0.0 for every interface, when the proxy runs
//          on another machine)
//   PORT   default 3000
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

// Next leaves SIGTERM and SIGINT to the dashboard's graceful stop (instrumentation.ts) only with this set.
process.env.NEXT_MANUAL_SIG_HANDLE = "true";
// The standalone server binds to HOSTNAME, which shells set to the machine's own name: bind to HOST, loopback unless
// said otherwise (as `npm run demo` does).
process.env.HOSTNAME = process.env.HOST?.trim() || "127.0.0.1";
process.env.PORT = process.env.PORT?.trim() || "3000";
// Idle keep-alive connections stay open 65 s, above a proxy's usual 60 s idle timeout (as `npm start`).
process.env.KEEP_ALIVE_TIMEOUT = process.env.KEEP_ALIVE_TIMEOUT?.trim() || "65000";
// No telemetry: the dashboard runs on air-gapped servers too.
process.env.NEXT_TELEMETRY_DISABLED = "1";

await import(pathToFileURL(path.join(here, "server.js")).href);
