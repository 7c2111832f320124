// `--headed` (Playwright's `headless` option) shows the fixture's browser:
// run by fixture.test.mjs under Xvfb with SENTIENCE_HEADED_CHECK set.
import { test, expect } from 'sentience-playwright/test';

test('the browser follows Playwright\'s headless option', async ({ page, sentience, headless }) => {
  test.skip(!process.env.SENTIENCE_HEADED_CHECK, 'run by fixture.test.mjs under Xvfb with --headed');
  expect(headless).toBe(false);
  await page.goto(`${process.env.SITE}/demo/index.html`);
  expect(await page.evaluate(() => navigator.userAgent)).not.toContain('HeadlessChrome');
  expect((await sentience.snapshot()).status).toBe('success');
});
