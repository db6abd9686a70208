import fs from "node:fs";
import path from "node:path";

import { render, screen } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";

import { DATE_FORMAT, DATE_TIME_FORMAT, DATE_TIME_SECONDS_FORMAT } from "@/lib/shared/date-format";

import { dayFormatter } from "./formatters";
import { useDateTime } from "./use-formatters";

/*
 * Every date the dashboard writes carries its year in four digits, in both languages: English's short date style
 * ("3/5/26") read as a day or a year alike. The formats (lib/shared/date-format.ts), the hook pages use, the
 * server pages' day formatter; and a scan that no source file goes back to a `dateStyle`, whose short form is
 * where the two-digit year came from.
 */

const LOCALES = ["en", "pt-BR"] as const;
// 5 March 2026, 12:04:09 UTC: day and month tell apart, and the year's two last digits are a plausible day.
const AT = "2026-03-05T12:04:09.000Z";
const TWO_DIGIT_YEAR = /(^|[^\d])\d{1,2}[/.-]\d{1,2}[/.-]\d{2}(?!\d)/;

function DateTimes() {
  const dateTime = useDateTime();
  return (
    <>
      <p>{dateTime(AT)}</p>
      <p>{dateTime(AT, "date")}</p>
    </>
  );
}

describe("dates carry a four-digit year", () => {
  it.each(LOCALES)("in the shared formats, in %s", (locale) => {
    for (const options of [DATE_FORMAT, DATE_TIME_FORMAT, DATE_TIME_SECONDS_FORMAT]) {
      const text = new Intl.DateTimeFormat(locale, { ...options, timeZone: "America/Sao_Paulo" }).format(new Date(AT));
      expect(text).toContain("2026");
      expect(text).not.toMatch(TWO_DIGIT_YEAR);
    }
    expect(new Intl.DateTimeFormat(locale, { ...DATE_FORMAT, timeZone: "UTC" }).format(new Date(AT))).toBe(
      locale === "en" ? "03/05/2026" : "05/03/2026",
    );
  });

  it.each(LOCALES)("in the pages' date and time hook, in %s", (locale) => {
    render(
      <NextIntlClientProvider locale={locale} messages={{}} timeZone="America/Sao_Paulo">
        <DateTimes />
      </NextIntlClientProvider>,
    );
    const [dateTime, date] = screen.getAllByRole("paragraph").map((node) => node.textContent ?? "");
    expect(date).toBe(locale === "en" ? "03/05/2026" : "05/03/2026");
    expect(dateTime).toContain(date);
    expect(dateTime).toMatch(/09:04/);
  });

  it.each(LOCALES)("in the server pages' long day, in %s; the short one (a chart's axis) writes no year at all", (locale) => {
    expect(dayFormatter(locale, "long")("2026-03-05")).toContain("2026");
    expect(dayFormatter(locale, "short")("2026-03-05")).not.toMatch(/\d{2}[/.-]\d{2}[/.-]\d/);
  });

  it("is not undone by a source file formatting with a date style", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && /dateStyle/.test(fs.readFileSync(file, "utf8")))
          offenders.push(file);
      }
    };
    for (const dir of ["app", "components", "lib"]) walk(path.join(process.cwd(), dir));
    expect(offenders, "use lib/shared/date-format.ts instead of dateStyle").toEqual([]);
  });
});
