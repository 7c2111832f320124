// The first snapshot after a page load (docs/benchmarks.md "Real pages: the
// first snapshot"): the engine warm-up's made-up walk must be one the engine
// accepts and that reaches its rules (a warm-up that fails silently would
// only make first snapshots slow again), and the warm-up must leave no trace
// in the page's snapshots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, isolatedWorld, suite } from '../lib/harness.mjs';

const env = suite({ trusted: true });

test("the warm-up's made-up walk is a valid page for the engine, listing every kind of element", async () => {
  const page = await open(env.browser.context, `${env.server.url}/login.html`);
  const world = await isolatedWorld(page);
  assert.ok(world, 'the isolated world of the top frame');
  const run = (copies) =>
    world.evaluate(`(async () => {
      const wasm = SentienceEngine;
      await wasm({ module_or_path: chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm') });
      const engine = new wasm.Engine('content_script');
      const json = engine.snapshot(SentienceWarmWalk.walk(${copies}), 'null', [1, 0, -1, 0]);
      engine.free();
      return json;
    })()`);
  const one = JSON.parse(await run(1));
  assert.equal(one.status, 'success', one.error);
  const roles = new Set(one.elements.map((e) => e.role));
  for (const role of ['link', 'button', 'searchbox', 'textbox', 'checkbox', 'combobox', 'image', 'generic']) assert.ok(roles.has(role), `a ${role} (got ${[...roles]})`);
  const twenty = JSON.parse(await run(20));
  assert.equal(twenty.status, 'success', twenty.error);
  assert.equal(twenty.elements.length, one.elements.length * 20, 'each copy listed');
  assert.equal(new Set(twenty.elements.map((e) => e.id)).size, twenty.elements.length, 'distinct ids');
  await world.close();
  await page.close();
});

test('a page warmed up on load gives the same first snapshot as one that was not', async () => {
  // The suite's first snapshot marks the API as used in this browser
  // session: pages opened after it warm the engine up as they load.
  const strip = (s) => JSON.stringify({ ...s, timestamp: undefined });
  const options = { diff: true };
  const cold = await open(env.browser.context, `${env.server.url}/login.html`);
  await env.browser.worker.evaluate(() => globalThis.SentienceWarmup.reset());
  const unwarmed = await open(env.browser.context, `${env.server.url}/login.html`);
  const first = await snapshot(unwarmed, options);
  assert.equal(first.status, 'success', first.error);
  assert.equal(await env.browser.worker.evaluate(() => globalThis.SentienceWarmup.isUsed()), true, 'the snapshot marked the API as used');
  const warmed = await open(env.browser.context, `${env.server.url}/login.html`);
  // (Time for the engine to load and warm up; not a timing assertion.)
  await warmed.waitForTimeout(500);
  const second = await snapshot(warmed, options);
  assert.equal(strip(second), strip(first));
  assert.equal(second.snapshot_id, 1);
  assert.equal(second.diff.since, null, 'no diff history from the warm-up');
  for (const p of [cold, unwarmed, warmed]) await p.close();
});
