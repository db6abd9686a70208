import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

// The verification specs' shared helpers (e2e/verifications.spec.ts, e2e/verification-list.spec.ts).

export interface ListAnswer {
  items: Array<{ publicId: string; status: string; createdAt?: string }>;
  pagination: { page: number; perPage: number; total: number };
}

export async function inEnglish(page: Page): Promise<void> {
  await page.context().addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
}
