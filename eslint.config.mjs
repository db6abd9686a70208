import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

import { layering } from "./eslint.layers.mjs";

const CONNECTION_LINKS =
  "Link and navigate with components/ui/app-link.tsx (AppLink, useAppRouter): the address keeps the page's connection (/c/{connection}/…).";
const RELATIVE_PARENT = "Import with `@/` and the path from the root; `./x` only for a file in the same folder.";
/** `import("../x")`: the dynamic twin of the relative-parent import rule, in every block that sets no-restricted-syntax. */
const RELATIVE_PARENT_IMPORT = { selector: "ImportExpression[source.value=/^\\.\\.\\//]", message: RELATIVE_PARENT };
/** A `<button>` written as such: every button goes through components/ui/button.tsx, which refuses an early press. */
const RAW_BUTTON = {
  selector: "JSXOpeningElement[name.name='button']",
  message:
    "Use Button or BareButton (components/ui/button.tsx): drawn disabled until the page's code runs, so a press before hydration is refused visibly, never lost or sent by the browser itself.",
};
const ADDRESS_CHANGE =
  "Change the address with changeAddress (lib/shared/address-change.ts): it waits for Next's router to follow history, else the page keeps the old state.";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // `const { secret: _secret, ...rest } = value` is how a field is left out of a copy.
      "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true, argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  layering,
  {
    // Small files with one concern: no source file over 400 lines, no React component (any function in a .tsx
    // file) over 150. Counted as written, blank lines and comments included.
    files: ["**/*.{ts,tsx,mjs}"],
    rules: { "max-lines": ["error", { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ["**/*.tsx"],
    ignores: ["**/*.test.tsx"],
    rules: { "max-lines-per-function": ["error", { max: 150, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    // `@/` imports only: a module is named by its path from the root wherever it is imported from (a file in the
    // same folder may still be `./x`). Sandbox code is a separate program without the alias.
    files: ["{app,components,lib,test,e2e}/**/*.{ts,tsx}", "scripts/**/*.ts", "proxy.ts", "instrumentation.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: "^\\.\\./", message: RELATIVE_PARENT }] }],
      "no-restricted-syntax": ["error", RELATIVE_PARENT_IMPORT],
    },
  },
  {
    // Links and navigation stay under the page's connection (/c/{connection}/…): one way to link and navigate,
    // components/ui/app-link.tsx. A plain next/link or useRouter would send a production page's click to the default
    // connection.
    files: ["{app,components,lib}/**/*.{ts,tsx}"],
    ignores: ["components/ui/app-link.tsx", "components/ui/link-pending.tsx", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^\\.\\./", message: RELATIVE_PARENT }],
          paths: [
            { name: "next/link", message: CONNECTION_LINKS },
            { name: "next/navigation", importNames: ["useRouter"], message: CONNECTION_LINKS },
          ],
        },
      ],
    },
  },
  {
    // The address changes without a request in one place, which waits for the router to follow history; a button is
    // drawn in one place, which refuses a press before hydration.
    files: ["{app,components,lib}/**/*.{ts,tsx}"],
    ignores: ["lib/shared/address-change.ts", "**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        RELATIVE_PARENT_IMPORT,
        { selector: "MemberExpression[property.name=/^(pushState|replaceState)$/]", message: ADDRESS_CHANGE },
        RAW_BUTTON,
      ],
    },
  },
  {
    files: ["components/ui/button.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        RELATIVE_PARENT_IMPORT,
        { selector: "MemberExpression[property.name=/^(pushState|replaceState)$/]", message: ADDRESS_CHANGE },
      ],
    },
  },
  {
    // No import cycle between files either (the layering already keeps folders from importing each other).
    files: ["{app,components,lib}/**/*.{ts,tsx}"],
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
    // The cycle search reads only the project's files: packages cannot import it back.
    settings: { "import/ignore": ["node_modules"] },
  },
  {
    // Playwright fixtures receive a `use` callback that is not React's `use`.
    files: ["e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "node_modules/**",
      ".data/**",
      ".test-data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      // npm run package's archives and, while it runs, the folder it packs.
      "dist/**",
    ],
  },
];

export default config;
