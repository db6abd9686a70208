import "server-only";

import { redactText } from "@/lib/log";

/* Error bodies: never trusted to be JSON; both shapes seen in the wild are read. */

export interface ParsedErrorBody {
  code?: string;
  message?: string;
  fields: string[];
}

const MAX_MESSAGE_LENGTH = 200;

/** The upstream's message, safe to show: credentials obscured, long digit runs (CPF, phone, code) masked. */
function safeUpstreamMessage(message: string): string {
  const cleaned = redactText(message)
    .replace(/\d[\d.\-\s/]{5,}\d/g, "***")
    .replace(/\s+/g, " ")
    .trim();
  return cleaned.length > MAX_MESSAGE_LENGTH ? `${cleaned.slice(0, MAX_MESSAGE_LENGTH)}…` : cleaned;
}

const FIELD_NAME = /^[A-Za-z0-9_.[\]-]{1,100}$/;

function fieldFromDetail(detail: unknown): string | undefined {
  if (typeof detail === "string") {
    if (FIELD_NAME.test(detail)) return detail;
    // "unknown parameter: foo", "Unknown query parameter 'foo'"…: take the quoted or last identifier.
    const quoted = /["'`]([A-Za-z0-9_.[\]-]{1,100})["'`]/.exec(detail) ?? /:\s*([A-Za-z0-9_.[\]-]{1,100})\s*$/.exec(detail);
    return quoted?.[1];
  }
  if (detail && typeof detail === "object") {
    const record = detail as Record<string, unknown>;
    for (const key of ["field", "param", "parameter", "name", "path", "loc", "location", "key"]) {
      const value = record[key];
      if (typeof value === "string" && FIELD_NAME.test(value)) return value;
      if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string" || typeof part === "number")) {
        return value.join(".");
      }
    }
  }
  return undefined;
}

function fieldsFrom(errors: unknown): string[] {
  if (Array.isArray(errors)) return errors.map(fieldFromDetail).filter((field): field is string => field !== undefined);
  if (errors && typeof errors === "object") return Object.keys(errors).filter((key) => FIELD_NAME.test(key));
  return [];
}

/**
 * Reads an error body of either shape without trusting it: not JSON, HTML from a gateway, an empty body or
 * an unexpected shape all give an empty result rather than a second error.
 */
export function parseErrorBody(text: string): ParsedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { fields: [] };
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) return { fields: [] };
  const record = body as Record<string, unknown>;
  const result: ParsedErrorBody = { fields: [] };

  const nested = record.error;
  if (nested && typeof nested === "object" && !Array.isArray(nested)) {
    // {error: {code, message, details}}
    const error = nested as Record<string, unknown>;
    if (typeof error.code === "string") result.code = error.code;
    if (typeof error.message === "string") result.message = error.message;
    result.fields.push(...fieldsFrom(error.details), ...fieldsFrom(error.errors));
  } else if (typeof nested === "string") {
    result.message = nested;
  }
  // {message, errors: {...} | [...]} (and a top-level code, seen on some gateways)
  if (typeof record.code === "string" && !result.code) result.code = record.code;
  if (typeof record.message === "string" && !result.message) result.message = record.message;
  result.fields.push(...fieldsFrom(record.errors), ...fieldsFrom(record.details));

  result.fields = [...new Set(result.fields)];
  if (result.message) result.message = safeUpstreamMessage(result.message);
  return result;
}
