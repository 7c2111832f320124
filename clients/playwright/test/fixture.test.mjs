// Runs the Playwright Test fixture's suite (pw-test/) with the real
// test runner, against a served demo store; then `--headed` under Xvfb.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSite } from './site.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function playwrightTest(args, env) {
  const cli = path.join(here, '../node_modules/@playwright/test/cli.js');
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [cli, 'test', '-c', path.join(here, '../pw-test/playwright.config.mjs'), ...args], { env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...env }, cwd: path.join(here, '..') });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.stderr.on('data', (d) => (text += d));
    p.on('exit', (code) => resolve({ code, text }));
  });
}

test('the Playwright Test fixture: test.extend({ sentience })', async () => {
  const site = await startSite();
  try {
    const out = await playwrightTest([], { SITE: site.url });
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /1 skipped/);
    assert.match(out.text, /2 passed/);
  } finally {
    await site.close();
  }
});

test('the fixture follows --headed (under Xvfb)', async (t) => {
  const xvfb = ['/usr/bin/Xvfb', '/usr/local/bin/Xvfb'].find((p) => fs.existsSync(p));
  if (!xvfb) return t.skip('no Xvfb');
  const server = spawn(xvfb, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x800x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const site = await startSite();
  try {
    const display = await new Promise((resolve, reject) => {
      server.stdio[3].once('data', (d) => resolve(String(d).trim()));
      server.once('exit', () => reject(new Error('Xvfb exited')));
    });
    const out = await playwrightTest(['--headed', 'headed.spec.mjs'], { SITE: site.url, DISPLAY: `:${display}`, SENTIENCE_HEADED_CHECK: '1' });
    assert.equal(out.code, 0, out.text);
    assert.match(out.text, /1 passed/);
  } finally {
    server.kill();
    await site.close();
  }
});
