/* Helpers shared by the sandbox's test files (plain fetch over real HTTP). */
import { request } from "node:http";

export const MAIN = {
  username: "backoffice",
  password: "sandbox-partner-password",
  domain: "backoffice.sandbox.local",
  token: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
} as const;

export const OTHER = {
  username: "other",
  password: "other-partner-password",
  domain: "other.sandbox.local",
  token: "7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9b8",
} as const;

export interface Verification {
  public_id: string;
  document: string;
  status: string;
  flow: string;
  journey: string;
  created_at: string;
  name: string;
  mother_name: string;
  birth_date: string;
  pep: boolean;
  pep_origin: string | null;
  restrictive_lists: Array<{ name: string; source: string; listed_at: string }>;
  steps: {
    ocr: { state: string; notices: Array<{ code: string; message: string }> };
    liveness: { state: string; score: number | null; notices: Array<{ code: string; message: string }> };
    facematch: { state: string; similarity: number | null; notices: Array<{ code: string; message: string }> };
  };
  identity_score: number;
  risk_score: number;
  decided_at: string | null;
}

export interface ListAnswer {
  data: Verification[];
  pagination: { page: number; per_page: number; total: number };
}

export interface CoreErrorBody {
  error: { code: string; message: string; details: Array<{ field: string; message: string }> };
}

export function core(base: string, path: string, key: string | null, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set("x-api-key", key);
  return fetch(`${base}/core${path}`, { ...init, headers });
}

export function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

export async function login(
  base: string,
  options: { expiration?: number; origin?: string; account?: typeof MAIN | typeof OTHER } = {},
): Promise<string> {
  const account = options.account ?? MAIN;
  const fields: Record<string, string> = { username: account.username, password: account.password };
  if (options.expiration !== undefined) fields.expiration = String(options.expiration);
  const response = await fetch(`${base}/partners/auth/login`, {
    method: "POST",
    headers: { origin: options.origin ?? `https://${account.domain}` },
    body: form(fields),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Every verification of a list, page by page (per_page 100). */
export async function listAll(base: string, key: string, query = ""): Promise<Verification[]> {
  const all: Verification[] = [];
  for (let page = 1; ; page++) {
    const response = await core(base, `/public/validations-persons?per_page=100&page=${page}${query ? `&${query}` : ""}`, key);
    const body = (await response.json()) as ListAnswer;
    all.push(...body.data);
    if (body.data.length < 100) return all;
  }
}

export function cpfCheckDigitsOk(formatted: string): boolean {
  const digits = formatted.replace(/\D/g, "");
  if (digits.length !== 11) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/**
 * GET with the path sent byte for byte (fetch drops a bare trailing `?`, which the files routes must refuse).
 */
export function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: "GET", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}
