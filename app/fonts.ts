import localFont from "next/font/local";

/*
 * Geist, from the `geist` package's files, declared here rather than through `geist/font/*` for one
 * setting: no preload. Each variable font is about 70 KiB; preloaded, both were fetched at the highest
 * priority before anything was painted, ahead of the page's own scripts, on every page. With
 * `display: swap` the text is painted at once in the fallback (metrics-adjusted for the sans face, as
 * `geist/font/sans` does), and each face is fetched when a page first uses it, then cached.
 */
export const GeistSans = localFont({
  src: "../node_modules/geist/dist/fonts/geist-sans/Geist-Variable.woff2",
  variable: "--font-geist-sans",
  weight: "100 900",
  display: "swap",
  preload: false,
});

export const GeistMono = localFont({
  src: "../node_modules/geist/dist/fonts/geist-mono/GeistMono-Variable.woff2",
  variable: "--font-geist-mono",
  weight: "100 900",
  display: "swap",
  preload: false,
  adjustFontFallback: false,
  fallback: [
    "ui-monospace",
    "SFMono-Regular",
    "Roboto Mono",
    "Menlo",
    "Monaco",
    "Liberation Mono",
    "DejaVu Sans Mono",
    "Courier New",
    "monospace",
  ],
});
