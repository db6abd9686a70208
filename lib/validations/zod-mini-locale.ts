import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

// Schemas that also run in the browser are written with zod/mini (a fraction of classic zod's weight),
// and import this module first: zod/mini loads no locale, so without it an issue would read "Invalid
// input" wherever classic zod (which installs English) is not loaded too, e.g. in a client component.
// With it, every schema gives the same messages on both sides.
z.config(en());
