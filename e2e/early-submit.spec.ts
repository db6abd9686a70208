import type { Page } from "@playwright/test";

import { baseURL } from "@/playwright.config";

import { expect, test } from "./fixtures";
import { signedInPages } from "./pages";

/*
 * A press before the page's code has hydrated it is refused visibly, never sent by the browser on its own. A form
 * handled by script alone (no `method`, no `action`) that the browser submitted itself would go to the page's own
 * address with its named fields in the query string (the audit log's CPF search did, once) and the reload would lose
 * the press; so in the server's HTML each such form's submit buttons are disabled, and a form with no submit button
 * has no field that Enter would submit. A form that works without the script (a plain GET, a POST to a route, a server
 * action) is pressable from its first paint. A button that does something only through its handler (a plain button,
 * or a submit button outside any form) is disabled there too: pressed before its handler is attached, nothing would
 * happen and nothing would say so. Every signed-in page is read, from its page file, and the sign-in page.
 */

interface FormSeen {
  /** What names the form in the report: its label, else its fields' names or ids. */
  name: string;
  native: boolean;
  submits: number;
  enabledSubmits: number;
  /** Fields Enter submits the form from (implicit submission). */
  enterFields: number;
}

const ENTER_TYPES = ["text", "email", "search", "tel", "url", "password", "number", "date", "datetime-local", "month", "time", "week"];

/** The forms of a server-rendered page as its HTML has them, before any script runs. */
async function formsIn(page: Page, html: string): Promise<FormSeen[]> {
  return page.evaluate(
    ({ html, enterTypes }) => {
      const doc = new DOMParser().parseFromString(html, "text/html");
      return [...doc.querySelectorAll("form")].map((form) => {
        const submits = [...form.elements].filter(
          (element) =>
            (element instanceof HTMLButtonElement && element.type === "submit") ||
            (element instanceof HTMLInputElement && (element.type === "submit" || element.type === "image")),
        ) as Array<HTMLButtonElement | HTMLInputElement>;
        const fields = [...form.elements].filter(
          (element) => element instanceof HTMLInputElement && enterTypes.includes(element.type) && !element.disabled,
        );
        const name =
          form.getAttribute("aria-label") ??
          (fields.map((field) => field.getAttribute("name") ?? field.id).join(", ") || form.outerHTML.slice(0, 80));
        return {
          name,
          native: form.hasAttribute("method") || form.hasAttribute("action"),
          submits: submits.length,
          enabledSubmits: submits.filter((submit) => !submit.disabled).length,
          enterFields: fields.length,
        };
      });
    },
    { html, enterTypes: ENTER_TYPES },
  );
}

/** The buttons of a page's HTML that only a handler makes do anything (no form to submit, no reset), still enabled. */
async function earlyButtonsIn(page: Page, html: string): Promise<string[]> {
  return page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    return [...doc.querySelectorAll("button")]
      .filter((button) => !button.disabled && (button.type === "button" || (button.type === "submit" && button.form === null)))
      .map((button) => button.getAttribute("aria-label") ?? (button.textContent?.trim() || button.outerHTML.slice(0, 80)));
  }, html);
}

function problemsOf(route: string, forms: FormSeen[]): string[] {
  return forms.flatMap((form) => {
    const where = `${route}, form "${form.name}"`;
    if (form.native) return form.enabledSubmits > 0 ? [] : [`${where}: works without the script, but nothing submits it before hydration`];
    if (form.submits === 0) return form.enterFields > 0 ? [`${where}: Enter in a field submits it before hydration`] : [];
    return form.enabledSubmits === 0 ? [] : [`${where}: ${form.enabledSubmits} submit button(s) enabled before hydration`];
  });
}

test("every form a page's script alone handles and every plain button is unpressable in the server's HTML, every other form is pressable", async ({
  adminPage,
  browser,
}) => {
  test.setTimeout(120_000);
  // The detail page with the decision's forms: a verification waiting for review.
  const list = await adminPage.request.get("/api/verifications?status=review&per_page=1");
  const publicId = ((await list.json()) as { items: Array<{ publicId: string }> }).items[0]!.publicId;
  const routes = signedInPages();
  expect(routes, "the page files are found").toContain("/admin/audit");

  // The reading itself tells the kinds apart: only the enabled button with nothing but a handler is reported.
  const probe = '<button type="button">Probe</button><button type="button" disabled>Off</button><form><button>Send</button></form>';
  expect(await earlyButtonsIn(adminPage, probe)).toEqual(["Probe"]);

  const problems: string[] = [];
  let scriptForms = 0;
  let nativeForms = 0;
  let plainButtons = 0;
  for (const route of routes) {
    const url = route.replace(/\[[^\]]+\]/, publicId);
    const response = await adminPage.request.get(url, { maxRedirects: 0 });
    expect(response.status(), url).toBe(200);
    const html = await response.text();
    const forms = await formsIn(adminPage, html);
    scriptForms += forms.filter((form) => !form.native).length;
    nativeForms += forms.filter((form) => form.native).length;
    problems.push(...problemsOf(route, forms));
    const early = await earlyButtonsIn(adminPage, html);
    problems.push(...early.map((name) => `${route}, button "${name}": enabled before hydration, does something only by script`));
    plainButtons += (html.match(/<button[^>]*type="button"/g) ?? []).length;
  }
  // Signed out: the sign-in form posts to its route without the script.
  const context = await browser.newContext({ baseURL });
  try {
    const signIn = await context.request.get("/sign-in");
    expect(signIn.status()).toBe(200);
    const html = await signIn.text();
    const forms = await formsIn(adminPage, html);
    expect(forms.filter((form) => form.native).length, "the sign-in form posts without the script").toBeGreaterThan(0);
    problems.push(...problemsOf("/sign-in", forms));
    problems.push(...(await earlyButtonsIn(adminPage, html)).map((name) => `/sign-in, button "${name}": enabled before hydration`));
  } finally {
    await context.close();
  }
  // Both kinds are there to check: the audit log's filters (script) and the shell's sign-out (a POST to its route).
  expect(scriptForms).toBeGreaterThan(0);
  expect(nativeForms).toBeGreaterThan(0);
  // and plain buttons (the menu's, the shortcuts' help, the sort headers).
  expect(plainButtons).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test("the audit log's CPF search pressed before hydration is refused, and the CPF never reaches the address", async ({
  browser,
  adminPage,
}) => {
  const context = await browser.newContext({ storageState: await adminPage.context().storageState(), javaScriptEnabled: false });
  try {
    await context.addCookies([{ name: "NEXT_LOCALE", value: "en", url: baseURL }]);
    const page = await context.newPage();
    await page.goto("/admin/audit");
    const navigations: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest()) navigations.push(request.url());
    });
    const search = page.getByLabel("Search by CPF");
    await search.fill("52998224725");
    const apply = page.getByRole("button", { name: "Apply filters" });
    await expect(apply).toBeDisabled();
    // Enter in the field: the form's default button is disabled, so the browser does not submit it (a submission
    // starts its navigation at once; a second is more than it ever takes).
    await search.press("Enter");
    await page.waitForRequest((request) => request.isNavigationRequest(), { timeout: 1_000 }).catch(() => null);
    expect(navigations).toEqual([]);
    expect(page.url()).toBe(new URL("/admin/audit", baseURL).href);
  } finally {
    await context.close();
  }
});
