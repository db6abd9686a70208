/*
 * How the dashboard writes a date, in both languages and everywhere (pages, the titular PDF): the year always in
 * four digits (English's short style writes "3/5/26", which reads as a day or a year alike), day and month in two,
 * so a column of dates lines up; the time in the language's own clock. Pass the display time zone beside them.
 */

export const DATE_FORMAT = { year: "numeric", month: "2-digit", day: "2-digit" } as const satisfies Intl.DateTimeFormatOptions;

export const DATE_TIME_FORMAT = { ...DATE_FORMAT, hour: "2-digit", minute: "2-digit" } as const satisfies Intl.DateTimeFormatOptions;

/** With the seconds: the audit trail's and the titular report's times, where events a second apart must read apart. */
export const DATE_TIME_SECONDS_FORMAT = { ...DATE_TIME_FORMAT, second: "2-digit" } as const satisfies Intl.DateTimeFormatOptions;
