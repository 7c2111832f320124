// Runs the Playwright Test fixture's suite (pw-test/) with the real
// test runner, against a served demo store.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite } from './site.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

test('the Playwright Test fixture: test.extend({ sentience })', async () => {
  const site = await startSite();
  try {
    const cli = path.join(here, '../node_modules/@playwright/test/cli.js');
    const out = await new Promise((resolve) => {
      const p = spawn(process.execPath, [cli, 'test', '-c', path.join(here, '../pw-test/playwright.config.mjs')], { env: { ...process.env, SITE: site.url, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' }, cwd: path.join(here, '..') });
      let text = '';
      p.stdout.on('data', (d) => (text += d));
      p.stderr.on('data', (d) => (text += d));
      p.on('exit', (code) => resolve({ code, text }));
    });
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /2 passed/);
  } finally {
    await site.close();
  }
});
