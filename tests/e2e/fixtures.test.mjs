// One test per fixture page: tests/pages/NAME.html is snapshotted in headless
// Chromium with the extension loaded and checked against NAME.expected.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PAGES, open, snapshot, suite } from '../lib/harness.mjs';
import { checkExpectations } from '../lib/expect.mjs';

const env = suite();

const fixtures = fs.readdirSync(PAGES).filter((f) => f.endsWith('.expected.json')).sort();

for (const file of fixtures) {
  const name = file.replace('.expected.json', '');
  test(`fixture ${name}`, async () => {
    const spec = JSON.parse(fs.readFileSync(path.join(PAGES, file), 'utf8'));
    const page = await open(env.browser.context, `${env.server.url}/${name}.html`);
    try {
      if (spec.waitFor) await page.waitForFunction(spec.waitFor);
      const snap = await snapshot(page, spec.options);
      checkExpectations(snap, spec);
      for (const [expr, want] of Object.entries(spec.pageChecks || {})) {
        assert.deepEqual(await page.evaluate(expr), want, `page check ${expr}`);
      }
      if (spec.hitTest) {
        // Geometry-only occlusion must agree with the browser's own hit test
        // at each element's centre.
        const disagreements = await page.evaluate((elements) => {
          const out = [];
          for (const e of elements) {
            if (!e.in_viewport) continue;
            const el = window.sentience_registry[e.id];
            const x = e.bbox.x + e.bbox.width / 2;
            const y = e.bbox.y + e.bbox.height / 2;
            const hit = document.elementFromPoint(x, y);
            const reachable = !!hit && (el === hit || el.contains(hit) || (hit.control === el) || (hit.closest('label') && hit.closest('label').control === el));
            if (reachable === e.is_occluded) out.push(`${e.role} "${e.text}": is_occluded=${e.is_occluded}, hit test reached ${hit && hit.outerHTML.slice(0, 60)}`);
          }
          return out;
        }, snap.elements);
        assert.deepEqual(disagreements, []);
      }
    } finally {
      await page.close();
    }
  });
}
