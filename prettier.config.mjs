/** @type {import("prettier").Config} */
const config = {
  printWidth: 140,
  plugins: ["@ianvs/prettier-plugin-sort-imports", "prettier-plugin-tailwindcss"],
  // Node built-ins, then packages, then the app's own modules, then relative ones.
  importOrder: ["<BUILTIN_MODULES>", "", "<THIRD_PARTY_MODULES>", "", "^@/(.*)$", "", "^[./]"],
  tailwindStylesheet: "./app/globals.css",
};

export default config;
