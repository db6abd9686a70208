import { z } from "zod";

/*
 * Runs in the browser before any application code. Zod compiles its object parsers with `new Function`
 * when it may, and probes for that by trying it once: under the pages' CSP (no 'unsafe-eval') the probe
 * is refused and reported as a violation. Parsing without compiled parsers is what the browser needs
 * anyway (a few small forms), so the probe is switched off before any schema is built.
 */
z.config({ jitless: true });
