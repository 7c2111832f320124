/**
 * A Playwright Test fixture: `sentience` bound to the test's page, in a
 * Chromium that has the extension loaded.
 *
 * ```ts
 * import { test, expect } from 'sentience-playwright/test';
 * test('signs in', async ({ page, sentience }) => {
 *   await page.goto('http://localhost:3000/login');
 *   await sentience.typeText(await sentience.find('role=textbox text~email'), 'ada@example.com');
 *   await sentience.expect().toHave("role=button text~'sign in'");
 * });
 * ```
 * `test.use({ sentienceTrust: ['http://localhost:3000'] })` trusts the origins you test.
 * @module
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base } from '@playwright/test';
import type { BrowserContext, Page } from 'playwright-core';
import * as calls from './calls.js';
import { defaultChromium, extensionArgs, trust } from './index.js';
import type { ElementRef, SnapshotOptions } from './types.js';

/** The calls of this package, bound to the test's page. */
export interface Sentience {
  page: Page;
  snapshot(options?: SnapshotOptions): ReturnType<typeof calls.snapshot>;
  query(q: string, options?: calls.ReadOptions): ReturnType<typeof calls.query>;
  find(q: string, options?: calls.ReadOptions): ReturnType<typeof calls.find>;
  format(options?: calls.ReadOptions & { max_tokens?: number }): ReturnType<typeof calls.format>;
  diff(since?: number): ReturnType<typeof calls.diff>;
  click(el: ElementRef): ReturnType<typeof calls.click>;
  typeText(el: ElementRef, text: string): ReturnType<typeof calls.typeText>;
  select(el: ElementRef, value: string): ReturnType<typeof calls.select>;
  press(key: string): ReturnType<typeof calls.press>;
  scroll(target: ElementRef | { dx?: number; dy?: number }): ReturnType<typeof calls.scroll>;
  hover(el: ElementRef): ReturnType<typeof calls.hover>;
  waitFor(q: string, options?: Parameters<typeof calls.waitFor>[2]): ReturnType<typeof calls.waitFor>;
  expect(options?: { timeout?: number }): ReturnType<typeof calls.expect>;
  screenshot(options?: Parameters<typeof calls.screenshot>[1]): ReturnType<typeof calls.screenshot>;
}

/** Binds every call to `page`. */
export function bind(page: Page): Sentience {
  return {
    page,
    snapshot: (o) => calls.snapshot(page, o),
    query: (q, o) => calls.query(page, q, o),
    find: (q, o) => calls.find(page, q, o),
    format: (o) => calls.format(page, o),
    diff: (since) => calls.diff(page, since),
    click: (el) => calls.click(page, el),
    typeText: (el, text) => calls.typeText(page, el, text),
    select: (el, value) => calls.select(page, el, value),
    press: (key) => calls.press(page, key),
    scroll: (t) => calls.scroll(page, t),
    hover: (el) => calls.hover(page, el),
    waitFor: (q, o) => calls.waitFor(page, q, o),
    expect: (o) => calls.expect(page, o),
    screenshot: (o) => calls.screenshot(page, o),
  };
}

/**
 * Playwright's `test` with the extension loaded in a persistent context
 * per worker (extensions need one), a fresh page per test, and `sentience`.
 */
export const test = base.extend<{ sentience: Sentience }, { sentienceContext: BrowserContext; sentienceTrust: string[] }>({
  sentienceTrust: [[], { option: true, scope: 'worker' }],
  sentienceContext: [
    async ({ playwright, sentienceTrust, headless }, use) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-test-'));
      const context = await playwright.chromium.launchPersistentContext(dir, {
        executablePath: defaultChromium(),
        // Playwright's own option: `--headed` and `use: { headless: false }` show the window.
        headless,
        viewport: { width: 1280, height: 800 },
        args: extensionArgs(),
      });
      if (sentienceTrust.length) await trust(context as unknown as BrowserContext, sentienceTrust);
      await use(context as unknown as BrowserContext);
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
    { scope: 'worker' },
  ],
  context: async ({ sentienceContext }, use) => {
    await use(sentienceContext as never);
  },
  page: async ({ sentienceContext }, use) => {
    const page = await sentienceContext.newPage();
    await use(page as never);
    await page.close();
  },
  sentience: async ({ page }, use) => {
    await use(bind(page as unknown as Page));
  },
});

export { expect } from '@playwright/test';
