/*
 * The project's layering, as lint (import/no-restricted-paths, from eslint-plugin-import). `npm run lint`
 * fails on an import that goes the wrong way and names the rule and the layer it broke.
 *
 *   app → components → lib features → shared layers; never upward.
 *
 * Shared layers, bottom to top; each imports only the ones before it. One folder per rank, so two folders
 * can never import each other (no cycle between folders is possible).
 * Features sit above every shared layer and import another feature only where FEATURES says so; that
 * table is acyclic (a test checks it). Browser code never imports server code.
 *
 * components/<name> mirrors lib/<name> and follows its rule: a feature's components import its own feature,
 * the features FEATURES allows (their lib/ and components/ folders), components/ui and the layers below;
 * components/auth and components/audit-trail sit at their layers' ranks. Two folders mirror nothing:
 * components/ui, the UI base (lib/shared, lib/i18n and lib/upstream/model only), and components/layout,
 * the shell, which may import any feature and which only app/ imports.
 */

export const LAYERS = [
  { name: "shared", glob: "lib/shared/**" },
  { name: "keys", glob: "lib/keys/**" },
  { name: "config", glob: "lib/config/**" },
  { name: "log", glob: "lib/log{.ts,.test.ts}" },
  { name: "metrics", glob: "lib/metrics/**" },
  { name: "tracing", glob: "lib/tracing/**" },
  { name: "runtime", glob: "lib/runtime/**" },
  { name: "i18n", glob: "lib/i18n/**" },
  { name: "db", glob: "lib/db/**" },
  { name: "upstream", glob: "lib/upstream/**" },
  { name: "audit-trail", glob: "lib/audit-trail/**" },
  { name: "auth", glob: "lib/auth/**" },
  { name: "connections", glob: "lib/connections/**" },
  { name: "api", glob: "lib/api/**" },
];

/** Each feature (lib/<name>/) and the features it may import. */
export const FEATURES = {
  webhooks: [],
  cases: ["webhooks", "notifications", "lookups"],
  notifications: [],
  views: ["cases", "verifications"],
  // lookups: the case page shows the person's records beside the document, through the lookups' own quota and trail.
  verifications: ["cases", "webhooks", "lookups"],
  overview: ["verifications", "cases", "webhooks"],
  analytics: ["cases", "overview", "verifications"],
  staff: ["account"],
  roles: ["staff"],
  // integrations: a connection's key expiring is told through the notifications (server/key-expiry.ts).
  integrations: ["notifications"],
  lookups: [],
  kyc: [],
  // account: a member away hands back the work they hold, cases and monitoring alerts (server/availability.ts).
  account: ["notifications", "cases", "monitoring"],
  privacy: ["cases", "webhooks", "notifications", "verifications", "monitoring"],
  // The embedded database's backups: the database, the secrets and the audit head file (no UI, commands only).
  backup: [],
  // Ongoing screening: re-screens the people whose case was approved (lib/cases' tables) and opens monitoring alerts.
  monitoring: ["cases", "notifications"],
};

/** The two components folders that mirror no lib folder. */
export const UI_BASE = "components/ui";
export const SHELL = "components/layout";

/** What components/ui may not import: all of lib/ but its browser-safe shared layers, and every other components folder. */
const NOT_FOR_UI_BASE = [
  "lib/!(shared|i18n|upstream)/**",
  "lib/*.{ts,tsx}",
  "lib/upstream/!(model)/**",
  "lib/upstream/*.{ts,tsx}",
  "components/!(ui)/**",
];

/** lib/<name>/** → components/<name>/**, for a layer or feature that is a folder (config and log are files). */
const mirrorOf = (glob) => {
  const folder = /^lib\/([^/]+)\/\*\*$/.exec(glob);
  return folder ? [glob, `components/${folder[1]}/**`] : [glob];
};

const featureGlobs = (name) => mirrorOf(`lib/${name}/**`);
const ALL_FEATURES = Object.keys(FEATURES).flatMap(featureGlobs);

/** Server code: a `server/` folder, the server-only layers, and the upstream clients (not their model/). */
export const SERVER_CODE = [
  "lib/*/server/**",
  "lib/keys/**",
  "lib/db/**",
  "lib/api/**",
  "lib/metrics/**",
  "lib/tracing/**",
  "lib/runtime/**",
  "lib/upstream/*.ts",
  "lib/{config/**,log.ts}",
];

/** Code that runs in the browser, or must stay able to: client components and the browser-safe parts of lib/. */
export const BROWSER_CODE = [
  "components/**",
  "app/**/page-client.tsx",
  "app/**/error.tsx",
  "app/providers.tsx",
  "lib/shared/**",
  "lib/upstream/model/**",
  ...[...Object.keys(FEATURES), "audit-trail", "auth", "connections"].map((name) => `lib/${name}/*.{ts,tsx}`),
];

function zones() {
  const out = [
    {
      target: "lib/**",
      from: ["app/**", "components/**"],
      message: "lib/ never imports app/ or components/ (layering: docs/architecture.md).",
    },
    { target: "components/**", from: ["app/**"], message: "components/ never imports app/ (layering: docs/architecture.md)." },
    {
      target: BROWSER_CODE,
      from: SERVER_CODE,
      message: "Browser code never imports server code (a server/ folder, db, api, config, log or an upstream client).",
    },
    {
      target: `${UI_BASE}/**`,
      from: NOT_FOR_UI_BASE,
      message:
        "components/ui is the UI base: it imports only lib/shared, lib/i18n and lib/upstream/model, no feature and no other components folder.",
    },
    {
      target: "components/!(layout)/**",
      from: [`${SHELL}/**`],
      message: "components/layout is the shell: only app/ imports it.",
    },
  ];
  LAYERS.forEach((layer, index) => {
    const above = [...LAYERS.slice(index + 1).flatMap((upper) => mirrorOf(upper.glob)), ...ALL_FEATURES, `${SHELL}/**`];
    out.push({
      target: mirrorOf(layer.glob),
      from: above,
      message: `The ${layer.name} layer imports only the layers below it (${
        LAYERS.slice(0, index)
          .map((lower) => lower.name)
          .join(", ") || "none"
      }).`,
    });
  });
  for (const [name, allowed] of Object.entries(FEATURES)) {
    const others = Object.keys(FEATURES).filter((other) => other !== name && !allowed.includes(other));
    if (others.length === 0) continue;
    out.push({
      target: featureGlobs(name),
      from: others.flatMap(featureGlobs),
      message: `The ${name} feature imports ${allowed.length ? `only these features: ${allowed.join(", ")}` : "no other feature"} (its lib/ and components/ alike; FEATURES in eslint.layers.mjs).`,
    });
  }
  return out;
}

/** The flat-config block: every source file but tests and test support, which may reach across layers. */
export const layering = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.{ts,tsx}", "proxy.ts", "instrumentation.ts"],
  ignores: ["**/*.test.ts", "**/*.test.tsx"],
  rules: { "import/no-restricted-paths": ["error", { zones: zones() }] },
};
