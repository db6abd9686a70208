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
 */

export const LAYERS = [
  { name: "shared", glob: "lib/shared/**" },
  { name: "keys", glob: "lib/keys/**" },
  { name: "config", glob: "lib/config/**" },
  { name: "log", glob: "lib/log{.ts,.test.ts}" },
  { name: "i18n", glob: "lib/i18n/**" },
  { name: "db", glob: "lib/db/**" },
  { name: "upstream", glob: "lib/upstream/**" },
  { name: "audit-trail", glob: "lib/audit-trail/**" },
  { name: "auth", glob: "lib/auth/**" },
  { name: "api", glob: "lib/api/**" },
];

/** Each feature (lib/<name>/) and the features it may import. */
export const FEATURES = {
  webhooks: [],
  cases: ["webhooks", "notifications"],
  notifications: [],
  views: ["cases", "verifications"],
  verifications: ["cases", "webhooks"],
  overview: ["verifications", "cases"],
  staff: [],
  roles: ["staff"],
  integrations: [],
  lookups: [],
  kyc: [],
  account: ["notifications"],
  privacy: ["cases", "webhooks", "notifications", "verifications"],
};

const featureGlob = (name) => `lib/${name}/**`;
const ALL_FEATURES = Object.keys(FEATURES).map(featureGlob);

/** Server code: a `server/` folder, the server-only layers, and the upstream clients (not their model/). */
export const SERVER_CODE = ["lib/*/server/**", "lib/keys/**", "lib/db/**", "lib/api/**", "lib/upstream/*.ts", "lib/{config/**,log.ts}"];

/** Code that runs in the browser, or must stay able to: client components and the browser-safe parts of lib/. */
export const BROWSER_CODE = [
  "components/**",
  "app/**/page-client.tsx",
  "app/**/error.tsx",
  "app/providers.tsx",
  "lib/shared/**",
  "lib/upstream/model/**",
  ...[...Object.keys(FEATURES), "audit-trail", "auth"].map((name) => `lib/${name}/*.{ts,tsx}`),
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
  ];
  LAYERS.forEach((layer, index) => {
    const above = [...LAYERS.slice(index + 1).map((upper) => upper.glob), ...ALL_FEATURES, "components/**", "app/**"];
    out.push({
      target: layer.glob,
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
      target: featureGlob(name),
      from: others.map(featureGlob),
      message: `The ${name} feature imports ${allowed.length ? `only these features: ${allowed.join(", ")}` : "no other feature"} (FEATURES in eslint.layers.mjs).`,
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
