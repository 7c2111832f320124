// window.sentience.click / type / press / scroll on ids of the last snapshot,
// in a real page: user-like event sequences and honest outcomes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, evaluate, viaWorker, suite } from '../lib/harness.mjs';

const env = suite();

async function setup() {
  const page = await open(env.browser.context, `${env.server.url}/actions.html`);
  const snap = await snapshot(page);
  assert.equal(snap.status, 'success');
  const byText = (text) => {
    const e = snap.elements.find((x) => x.text === text);
    assert.ok(e, `no element "${text}" in ${snap.elements.map((x) => x.text)}`);
    return e.id;
  };
  return { page, snap, byText };
}
const call = (page, expr) => evaluate(page, `window.sentience.${expr}`);

test('click dispatches the pointer/mouse sequence at the element centre and reports the DOM change', async () => {
  const { page, snap, byText } = await setup();
  const id = byText('Clicked 0 times');
  const res = await call(page, `click(${id})`);
  assert.deepEqual(res, { success: true, outcome: 'dom_changed' });
  assert.equal(await page.textContent('#counter'), 'Clicked 1 times');
  const el = snap.elements.find((e) => e.id === id);
  const cx = Math.round(el.bbox.x + el.bbox.width / 2);
  const cy = Math.round(el.bbox.y + el.bbox.height / 2);
  const log = await page.evaluate('window.log');
  assert.deepEqual(log.map((l) => l.split(':')[0]), ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']);
  for (const l of log) {
    const [x, y] = l.split(':')[1].split(',').map(Number);
    assert.ok(Math.abs(x - cx) <= 1 && Math.abs(y - cy) <= 1, `${l} is not at the centre ${cx},${cy}`);
  }
  await page.close();
});

test('click on a checkbox toggles it; a disabled button fails; an unknown id fails', async () => {
  const { page, byText } = await setup();
  assert.equal((await call(page, `click(${byText('I agree')})`)).success, true);
  assert.equal(await page.isChecked('#agree'), true);
  const disabled = await call(page, `click(${byText('Disabled')})`);
  assert.deepEqual(disabled, { success: false, error: 'element is disabled', outcome: 'none' });
  const unknown = await call(page, 'click(987654)');
  assert.equal(unknown.success, false);
  assert.match(unknown.error, /no element with id 987654/);
  const bad = await call(page, 'click("nope")');
  assert.equal(bad.success, false);
  await page.close();
});

test('type replaces the value key by key through the native setter (frameworks see it)', async () => {
  const { page, byText } = await setup();
  const res = await call(page, `type(${byText('old')}, "Ada")`);
  assert.equal(res.success, true);
  assert.equal(await page.inputValue('#name'), 'Ada');
  // The page's own listeners see the value grow key by key.
  assert.deepEqual(await page.evaluate('window.valuesSeen'), ['', 'A', 'Ad', 'Ada']);
  const events = await page.evaluate('window.inputEvents');
  assert.deepEqual(events.slice(-6), ['keydown', 'keypress', 'beforeinput', 'input', 'keyup', 'change']);
  assert.equal(events.filter((e) => e === 'keydown').length, 3);
  await page.close();
});

test('type picks a <select> option and types into contenteditable', async () => {
  const { page, snap } = await setup();
  const select = snap.elements.find((e) => e.role === 'combobox');
  assert.equal((await call(page, `type(${select.id}, "Banana")`)).success, true);
  assert.equal(await page.evaluate('window.fruitChanged'), 'b');
  const missing = await call(page, `type(${select.id}, "Cherry")`);
  assert.equal(missing.success, false);
  const editor = snap.elements.find((e) => e.role === 'textbox' && e.text === null);
  assert.ok(editor, 'the empty contenteditable is a textbox with no text');
  assert.equal((await call(page, `type(${editor.id}, "Hello")`)).success, true);
  assert.equal(await page.textContent('#editor'), 'Hello');
  await page.close();
});

// A page-world caller whose action navigates loses its page (and with it the
// promise); the extension's own callers (the service worker, as the agent
// loop uses) get the outcome. Navigation is therefore tested on that path.
test('press Enter in a form field submits the form and reports navigation', async () => {
  const { page, byText } = await setup();
  assert.equal((await call(page, `type(${byText('Query')}, "rust")`)).success, true);
  const [res] = await Promise.all([viaWorker(env.browser.worker, page, 'press', { key: 'Enter' }), page.waitForURL(/welcome\.html\?q=rust/)]);
  assert.deepEqual(res, { success: true, outcome: 'navigated' });
  await page.close();
});

test('click on a link navigates; press with a bad key fails', async () => {
  const { page, byText } = await setup();
  assert.deepEqual(await call(page, 'press("")'), { success: false, error: 'press(key): key must be a non-empty string such as "Enter"', outcome: 'none' });
  const [res] = await Promise.all([viaWorker(env.browser.worker, page, 'click', { id: byText('Go to login') }), page.waitForURL(/login\.html/)]);
  assert.deepEqual(res, { success: true, outcome: 'navigated' });
  await page.close();
});

test('scroll brings an element into view, or scrolls the page by dx/dy', async () => {
  const { page, byText } = await setup();
  const far = byText('Far away');
  assert.equal((await call(page, `scroll(${far})`)).success, true);
  const snap = await snapshot(page);
  assert.equal(snap.elements.find((e) => e.id === far).in_viewport, true, 'scrolled into view');
  assert.equal((await call(page, 'scroll({dx: 0, dy: -5000})')).success, true);
  assert.equal(await page.evaluate('window.scrollY'), 0);
  await page.close();
});

test('scroll within a row that does not scroll moves the box around it, not the page', async () => {
  const page = await open(env.browser.context, `${env.server.url}/scroll-box.html`);
  const snap = await snapshot(page);
  const open2 = snap.elements.find((e) => e.text === 'Open 2');
  assert.ok(open2, 'the row button is in the snapshot');
  const res = await viaWorker(env.browser.worker, page, 'scroll', { id: open2.id, dy: 120, within: true });
  assert.equal(res.success, true, JSON.stringify(res));
  assert.equal(await page.evaluate("document.getElementById('box').scrollTop"), 120);
  assert.equal(await page.evaluate('window.scrollY'), 0);
  await page.close();
});

test('click lands on the innermost element under the pointer, as a real click does', async () => {
  const page = await open(env.browser.context, `${env.server.url}/nested-click.html`);
  const snap = await snapshot(page);
  const tab = snap.elements.find((e) => e.text === 'Tab #1');
  assert.ok(tab, 'the tab is in the snapshot');
  const res = await evaluate(page, `window.sentience.click(${tab.id})`);
  assert.equal(res.success, true);
  assert.equal(await page.textContent('#out'), 'inner clicked');
  await page.close();
});
