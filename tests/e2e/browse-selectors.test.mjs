// Selectors the client can trust (docs/browse.md): on every
// fixture page (tests/pages/**.html and the demo store), every element the
// browse policies could choose has a selector that matches exactly that one
// element in Chromium's document.querySelectorAll on the same HTML, as it
// does in the server's parser (`verified`). The same check on real saved
// pages is a measurement: pkg-scripts/bench.sh browse-selectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT, PAGES, CHROMIUM } from '../lib/harness.mjs';
import { candidatesOf, checkInChromium } from '../lib/browse-selectors.mjs';

function htmlFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return htmlFiles(p);
    return d.name.endsWith('.html') ? [p] : [];
  });
}

test('every selector the browse policies could send matches exactly its element in Chromium, on every fixture page', async () => {
  const files = [...htmlFiles(PAGES), ...htmlFiles(path.join(ROOT, 'demo'))].sort();
  const byFile = candidatesOf(files);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const failures = [];
  let checked = 0;
  let pagesWithCandidates = 0;
  try {
    const page = await browser.newPage();
    for (const file of files) {
      const { elements } = byFile[file];
      for (const e of elements) assert.equal(e.verified, true, `${file}: ${e.selector} not verified by the server's parser`);
      if (elements.length) pagesWithCandidates++;
      const r = await checkInChromium(page, fs.readFileSync(file, 'utf8'), elements);
      checked += r.checked;
      failures.push(...r.failures.map((f) => `${path.relative(ROOT, file)}: ${f.selector} ${f.reason}`));
    }
  } finally {
    await browser.close();
  }
  assert.deepEqual(failures, [], failures.join('\n'));
  // The check must have had something to check: most pages have candidates.
  assert.ok(pagesWithCandidates >= files.length / 2, `${pagesWithCandidates}/${files.length} pages had candidates`);
  assert.ok(checked >= 200, `only ${checked} selectors checked`);
});

test('the Chromium check fails a selector that matches several elements, another element, or nothing', async () => {
  const html = '<!doctype html><html><head></head><body><p><button>A</button><button id="b">B</button></p></body></html>';
  // querySelectorAll('*'): html 0, head 1, body 2, p 3, button 4, button#b 5.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const r = await checkInChromium(page, html, [
      { selector: '#b', domIndex: 5, tag: 'button' },
      { selector: 'button', domIndex: 4, tag: 'button' },
      { selector: '#b', domIndex: 4, tag: 'button' },
      { selector: '#nope', domIndex: 4, tag: 'button' },
      { selector: 'p >', domIndex: 3, tag: 'p' },
    ]);
    assert.equal(r.unique, 1);
    assert.deepEqual(r.failures.map((f) => f.reason.split(':')[0]), [
      'matches 2 elements',
      'matches <button>, not the element at index 4 (<button>)',
      'matches nothing',
      'invalid in Chromium',
    ]);
  } finally {
    await browser.close();
  }
});
