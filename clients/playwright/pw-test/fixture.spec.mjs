// `test.extend({ sentience })` in Playwright Test: one import, the extension
// loaded, `sentience` bound to the test's page. SITE is set by fixture.test.mjs.
import { test, expect } from 'sentience-playwright/test';

const SITE = process.env.SITE;
test.use({ sentienceTrust: [SITE] });

test('sentience is bound to the page, with the extension loaded', async ({ page, sentience }) => {
  await page.goto(`${SITE}/demo/login.html`);
  const snap = await sentience.snapshot();
  expect(snap.status).toBe('success');
  await sentience.typeText(await sentience.find('role=textbox text~user'), 'alice');
  await sentience.typeText(await sentience.find('role=textbox text~password'), 's3cret');
  expect((await sentience.click(await sentience.find("role=button text~'log in'"))).outcome).toBe('navigated');
  await expect(page).toHaveURL(/welcome\.html\?user=alice/);
  await sentience.expect().toHave("role=link text~'log out'");
});

test('a failing expectation says what the page had', async ({ page, sentience }) => {
  await page.goto(`${SITE}/demo/index.html`);
  const err = await sentience.expect({ timeout: 200 }).toHave('role=button text=Nope').catch((e) => e);
  expect(err.message).toContain('expect(page).toHave("role=button text=Nope") failed');
  expect(err.message).toContain('Add to cart');
});
