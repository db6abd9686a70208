import type { Config } from "tailwindcss";

// Tailwind 4 reads this file only through `@config` in app/globals.css.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  // No web fonts: Tailwind's default sans and mono stacks are the system's own faces (ui-sans-serif,
  // system-ui…; ui-monospace, SFMono-Regular, Menlo, Consolas…), which cost no request before the first
  // paint (docs/benchmarks.md "First paint").
};

export default config;
