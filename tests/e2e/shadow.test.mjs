// Shadow DOM (docs/api.md "Iframes and shadow DOM"): open and closed roots (closed ones through
// chrome.dom.openOrClosedShadowRoot in the content script), nested, on
// custom elements and on a plain <div>, slotted content where it renders,
// and actions inside closed roots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, evaluate, suite } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = suite();

const find = (snap, text) => snap.elements.filter((e) => e.text === text);
function must(snap, text) {
  const found = find(snap, text);
  assert.equal(found.length, 1, `exactly one "${text}" expected in: ${snap.elements.map((e) => e.text).join(' | ')}`);
  return found[0];
}

test('open, closed, nested and slotted shadow content is in the snapshot once, where it renders', async () => {
  const page = await open(env.browser.context, `${env.server.url}/shadow.html`);
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    assertSchema(snap);
    must(snap, 'Open shadow button');
    must(snap, 'Closed shadow button');
    must(snap, 'Div closed button');
    must(snap, 'Framed in shadow'); // an iframe inside a closed root
    const nested = snap.elements.filter((e) => e.role === 'textbox' && e.text === 'Nested closed field');
    assert.equal(nested.length, 1, 'input in a closed root nested in an open one');
    const slotted = must(snap, 'Slotted button');
    // Rendered at the slot: right of the 300px column, 150px down.
    assert.ok(slotted.bbox.x >= 300 && slotted.bbox.y >= 150, `slotted bbox ${JSON.stringify(slotted.bbox)}`);
    const box = await page.locator('button[slot=action]').boundingBox();
    assert.ok(Math.abs(box.x - slotted.bbox.x) < 1 && Math.abs(box.y - slotted.bbox.y) < 1);
    // A slot nothing is assigned to renders its fallback content.
    must(snap, 'Fallback button');
    // Light-DOM children without a slot are not rendered.
    assert.equal(find(snap, 'Unslotted button').length, 0);
  } finally {
    await page.close();
  }
});

test('actions inside open, closed and nested shadow roots', async () => {
  const page = await open(env.browser.context, `${env.server.url}/shadow.html`);
  try {
    const snap = await snapshot(page);
    for (const text of ['Open shadow button', 'Closed shadow button', 'Div closed button', 'Slotted button', 'Framed in shadow']) {
      const r = await evaluate(page, `window.sentience.click(${must(snap, text).id})`);
      assert.equal(r.success, true, `${text}: ${r.error}`);
    }
    const field = snap.elements.find((e) => e.text === 'Nested closed field');
    const typed = await evaluate(page, `window.sentience.type(${field.id}, 'deep inside')`);
    assert.equal(typed.success, true, typed.error);
    assert.deepEqual(await page.evaluate(() => window.readClosed()), { closed: 'Closed clicked', nested: 'deep inside', plain: 'Div clicked', framed: 'Framed clicked' });
    assert.equal(await page.evaluate(() => document.getElementById('open').shadowRoot.querySelector('button').textContent), 'Open clicked');
    assert.equal(await page.locator('button[slot=action]').textContent(), 'Slotted clicked');
    // The registry hands the page what it may see: elements of open roots
    // themselves, the host for elements of closed roots.
    const got = await evaluate(page, `(() => {
      const r = window.sentience_registry;
      return { open: r[${must(snap, 'Open shadow button').id}].localName, closed: r[${must(snap, 'Closed shadow button').id}].id, plain: r[${must(snap, 'Div closed button').id}].id };
    })()`);
    assert.deepEqual(got, { open: 'button', closed: 'closed', plain: 'plain-host' });
  } finally {
    await page.close();
  }
});
