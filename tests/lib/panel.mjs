// Helpers for the side panel's suites (tests/e2e/sidepanel*.test.mjs): the
// panel opened as a tab of its own (driving the tab named by ?tab=), its
// screenshots for docs/extension.md, and an axe-core scan.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';
import { ROOT } from './harness.mjs';
import { panelUrl } from './agent.mjs';

// The panel's width in Chrome's side panel (it can be dragged wider).
export const PANEL_VIEWPORT = { width: 400, height: 720 };

/** Opens the side panel's page as a tab that drives tab `tabId`; resolves once it has drawn its first state. */
export async function openPanel(context, tabId) {
  const panel = await context.newPage();
  await panel.setViewportSize(PANEL_VIEWPORT);
  await panel.goto(panelUrl(tabId));
  await panel.waitForSelector('body[data-ready=true]', { timeout: 15000 });
  return panel;
}

// Screenshots of each state: into target/screenshots/extension/ (build
// output) on every run; with UPDATE_SCREENSHOTS=1 into
// docs/images/extension/, which docs/extension.md shows (commit them).
const SHOTS = process.env.UPDATE_SCREENSHOTS ? path.join(ROOT, 'docs/images/extension') : path.join(ROOT, 'target/screenshots/extension');

/** Writes a PNG of `page` (the whole panel, or `clip` of a page) named `name`. */
export async function shot(page, name, { clip } = {}) {
  fs.mkdirSync(SHOTS, { recursive: true });
  // From the top: the panel's header is sticky, and a page scrolled to a
  // field would draw it in the middle of a full-page picture.
  if (!clip) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), ...(clip ? { clip } : { fullPage: true }), animations: 'disabled', caret: 'hide' });
}

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.x A and AA rules, best practices) on the page as
 * it is, in the light scheme and the dark one, and fails on any serious or
 * critical violation, naming each with its elements.
 */
export async function axeScan(page, label) {
  // Evaluated through the DevTools protocol, which the extension page's
  // Content-Security-Policy does not govern.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    const violations = await page.evaluate(async () => {
      const res = await window.axe.run(document, { resultTypes: ['violations'] });
      return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`).slice(0, 5) }));
    });
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], `${label} (${colorScheme}): ${JSON.stringify(serious, null, 1)}`);
  }
  await page.emulateMedia({ colorScheme: null });
}

/** The panel's step lines as text, in order (`kind`: only lines of that kind: tool, ask, answer, reflection…). */
export function stepTexts(panel, list = '#steps', kind = null) {
  return panel.$$eval(`${list} > li${kind ? `[data-kind="${kind}"]` : ''}`, (lis) => lis.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
}
