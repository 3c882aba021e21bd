import { type BrowserContext, test as base, expect, type Page } from '@playwright/test';

export { expect };

// Chromium logs every 4xx/5xx answer as a console error; the pages show those on purpose.
const EXPECTED = /^Failed to load resource: the server responded with a status of \d+/;

/**
 * Playwright's test, failing any test whose pages logged a console error or threw an uncaught
 * exception (a hydration mismatch is both), in its own page or any context it opened.
 */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ browser, context }, use) => {
      const errors: string[] = [];
      const watchPage = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() === 'error' && !EXPECTED.test(message.text()))
            errors.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
      };
      const watch = (ctx: BrowserContext) => {
        ctx.pages().forEach(watchPage);
        ctx.on('page', watchPage);
      };
      watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        watch(created);
        return created;
      };
      try {
        await use(errors);
      } finally {
        browser.newContext = newContext;
      }
      expect(errors, 'console errors logged by the pages').toEqual([]);
    },
    { auto: true },
  ],
});
