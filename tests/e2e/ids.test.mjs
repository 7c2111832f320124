// Stable ids, snapshot_id and diffs, element states, choosing options and
// waiting for stability (docs/api.md), in Chromium with the real extension.
// Every snapshot is validated against snapshot.schema.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot as rawSnapshot, evaluate, viaWorker, suite } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';

const env = suite();

async function snapshot(page, options) {
  const snap = await rawSnapshot(page, options);
  assert.equal(snap.status, 'success', `snapshot failed: ${snap.error}`);
  assertSchema(snap);
  return snap;
}
const idsByText = (snap) => Object.fromEntries(snap.elements.map((e) => [e.text, e.id]));
const call = (page, expr) => evaluate(page, `window.sentience.${expr}`);

test('ids stay the same across insertions before, sibling re-renders, scrolling and other limits/filters', async () => {
  const page = await open(env.browser.context, `${env.server.url}/ids.html`);
  const first = await snapshot(page);
  const before = idsByText(first);
  for (const t of ['Alpha', 'Bravo', 'Old link', 'Charlie', 'Agree', 'Far below']) assert.ok(before[t], `no ${t}`);

  await page.evaluate('insertBefore()');
  const second = await snapshot(page);
  const after = idsByText(second);
  for (const t of ['Alpha', 'Bravo', 'Old link', 'Charlie', 'Agree', 'Far below']) assert.equal(after[t], before[t], `${t} kept its id`);
  assert.ok(after.Zero > Math.max(...Object.values(before)), 'a new element gets a new, never-used id');

  await page.evaluate('window.scrollTo(0, 1500)');
  const scrolled = idsByText(await snapshot(page));
  for (const t of ['Alpha', 'Far below']) assert.equal(scrolled[t], before[t], `${t} kept its id after scrolling`);
  await page.evaluate('window.scrollTo(0, 0)');

  const limited = await snapshot(page, { limit: 2, filter: { allowed_roles: ['button'] } });
  for (const e of limited.elements) assert.equal(e.id, after[e.text], `${e.text} has the same id under limit/filter`);
  const full = idsByText(await snapshot(page));
  assert.deepEqual(full, after, 'ids unchanged after a snapshot with another limit/filter');

  // A re-rendered sibling is a new node: a new id; its neighbours keep theirs.
  await page.evaluate('rerenderSibling()');
  const rerendered = idsByText(await snapshot(page));
  assert.notEqual(rerendered['Old link'], before['Old link'], 're-rendered node is a new element');
  assert.equal(rerendered.Bravo, before.Bravo);
  assert.equal(rerendered.Charlie, before.Charlie);

  // Removed then re-inserted as an identical new node: a new id; the old one never comes back.
  await page.evaluate('removeAndReinsert()');
  const reinserted = await snapshot(page);
  const ids = idsByText(reinserted);
  assert.ok(ids.Charlie > before.Charlie, 'the copy gets a fresh id');
  assert.ok(!reinserted.elements.some((e) => e.id === before.Charlie), 'the removed id is not reused');
  assert.equal(await page.evaluate(`window.sentience_registry[${before.Charlie}]`), undefined, 'the old id resolves to nothing');
  assert.equal(await page.evaluate(`window.sentience_registry[${ids.Charlie}].id`), 'c');
  await page.close();
});

test('snapshot_id increases; diff tells added, removed and changed against the previous or an older snapshot', async () => {
  const page = await open(env.browser.context, `${env.server.url}/ids.html`);
  const s1 = await snapshot(page);
  assert.equal(s1.snapshot_id, 1);
  assert.equal(s1.diff, undefined, 'no diff unless asked');
  const ids = idsByText(s1);

  // Nothing above moves: a renamed button, a re-rendered sibling (same
  // layout), a ticked checkbox, a button appended at the end.
  await page.evaluate('appendLast(); renameBravo(); rerenderSibling()');
  await page.click('#agree');
  const s2 = await snapshot(page, { diff: true });
  assert.equal(s2.snapshot_id, 2);
  const now = idsByText(s2);
  assert.deepEqual(s2.diff, {
    since: 1,
    added: [now['Old link'], now.Last].sort((a, b) => a - b),
    removed: [ids['Old link']],
    changed: [ids.Agree, ids['Bravo']].sort((a, b) => a - b),
  });
  assert.equal(now['Bravo 2'], ids.Bravo, 'renamed in place: same element, same id');
  assert.deepEqual(s2.elements.find((e) => e.id === ids.Agree).state, { checked: true });

  // Nothing happened since: an empty diff.
  const s3 = await snapshot(page, { diff: true });
  assert.deepEqual(s3.diff, { since: 2, added: [], removed: [], changed: [] });

  // Inserting before shifts what follows: moved by more than 2 px is a change.
  await page.evaluate('insertBefore()');
  const shifted = await snapshot(page, { diff: true });
  assert.deepEqual(shifted.diff.added, [idsByText(shifted).Zero]);
  assert.ok(shifted.diff.changed.includes(ids.Alpha) && shifted.diff.changed.includes(ids.Charlie), JSON.stringify(shifted.diff));

  // Against an older one.
  const s4 = await snapshot(page, { since: 1 });
  assert.equal(s4.snapshot_id, 5);
  assert.equal(s4.diff.since, 1);
  assert.deepEqual(s4.diff.removed, [ids['Old link']]);

  // With a limit, added/changed list only returned elements; removed is about the page.
  await page.evaluate("document.getElementById('a').remove()");
  const s5 = await snapshot(page, { diff: true, limit: 1, filter: { allowed_roles: ['checkbox'] } });
  // Everything below Alpha moved up; only the returned checkbox is listed as changed.
  assert.deepEqual(s5.diff, { since: 5, added: [], removed: [ids.Alpha], changed: [ids.Agree] });

  // Unknown or expired snapshots are clear errors.
  for (const since of [99, 1]) {
    const bad = await rawSnapshot(page, { since });
    assert.equal(bad.status, 'error');
    assert.match(bad.error, new RegExp(`^diff: snapshot ${since} of this page is not kept`));
  }
  for (const [options, message] of [
    [{ diff: 'yes' }, /invalid snapshot options: `diff` must be true or false/],
    [{ since: -1 }, /invalid snapshot options: `since` must be a snapshot_id \(an integer from 1 to 4294967295\)/],
    [{ diff: false, since: 2 }, /since asks for a diff/],
    [{ since: 0 }, /since must be a snapshot_id \(1 or more\)/],
  ]) {
    const bad = await rawSnapshot(page, options);
    assert.equal(bad.status, 'error');
    assert.match(bad.error, message);
  }
  await page.close();
});

test('the first snapshot of a page diffs against nothing: since null, everything added', async () => {
  const page = await open(env.browser.context, `${env.server.url}/ids.html`);
  const s = await snapshot(page, { diff: true, limit: 3 });
  assert.equal(s.diff.since, null);
  assert.deepEqual(s.diff.added, s.elements.map((e) => e.id).sort((a, b) => a - b));
  await page.close();
});

test('diffs work on the service worker path too (strict-CSP pages)', async () => {
  const page = await open(env.browser.context, `${env.server.url}/ids.html?via=worker`);
  const [worker] = env.browser.context.serviceWorkers();
  const via = { path: 'service_worker' };
  const s1 = await viaWorker(worker, page, 'snapshot', {}, via);
  assert.equal(s1.meta.engine_path, 'service_worker');
  await page.evaluate('renameBravo()');
  const s2 = await viaWorker(worker, page, 'snapshot', { diff: true }, via);
  assertSchema(s2);
  assert.equal(s2.diff.since, s1.snapshot_id);
  assert.deepEqual(s2.diff.changed, [idsByText(s1).Bravo]);
  await page.close();
});

test('select() picks a <select> option by value or text with focus/input/change, and fails clearly', async () => {
  const page = await open(env.browser.context, `${env.server.url}/choose.html`);
  const snap = await snapshot(page);
  const country = snap.elements.find((e) => e.text === 'Country');
  assert.deepEqual(country.state.options.map((o) => o.value), ['', 'de', 'fr', 'it']);
  assert.deepEqual(await call(page, `select(${country.id}, 'fr')`), { success: true, outcome: 'dom_changed' });
  assert.equal(await page.evaluate("document.getElementById('country').value"), 'fr');
  // Focused first (the old value), then chosen: as a user picking from the popup.
  assert.equal(await page.textContent('#log'), 'focus:;input:fr;change:fr;');
  assert.equal((await call(page, `select(${country.id}, 'germany')`)).success, true);
  assert.equal(await page.evaluate("document.getElementById('country').value"), 'de');
  const after = (await snapshot(page)).elements.find((e) => e.id === country.id);
  assert.equal(after.state.value, 'Germany');

  const missing = await call(page, `select(${country.id}, 'Spain')`);
  assert.equal(missing.success, false);
  assert.match(missing.error, /no option matching "Spain" in <select> \(options: "Choose…", "Germany", "France", "Italy"\)/);
  assert.match((await call(page, `select(${country.id}, 'Italy')`)).error, /option "Italy" is disabled/);
  const plain = snap.elements.find((e) => e.text === 'Plain button');
  assert.match((await call(page, `select(${plain.id}, 'x')`)).error, /not a <select>, listbox or combobox/);
  assert.match((await call(page, `select(${country.id}, 5)`)).error, /must be a string/);
  await page.close();
});

test('ARIA listbox options: select(), type() and a click each choose in one action; a combobox opens first', async () => {
  const page = await open(env.browser.context, `${env.server.url}/choose.html`);
  let snap = await snapshot(page);
  const fruit = snap.elements.find((e) => e.text === 'Fruit');
  assert.equal(fruit.role, 'combobox');
  assert.deepEqual(fruit.state.options, [
    { text: 'Apple', value: 'apple', selected: false },
    { text: 'Banana', value: 'banana', selected: false },
  ]);
  assert.deepEqual(await call(page, `select(${fruit.id}, 'banana')`), { success: true, outcome: 'dom_changed' });
  assert.equal(await page.textContent('#log'), 'fruit:Banana;');
  assert.equal((await call(page, `type(${fruit.id}, 'Apple')`)).success, true);
  snap = await snapshot(page);
  const apple = snap.elements.find((e) => e.text === 'Apple');
  assert.deepEqual([apple.role, apple.state], ['button', { selected: true }]);
  const banana = snap.elements.find((e) => e.text === 'Banana');
  assert.equal((await call(page, `click(${banana.id})`)).success, true);
  assert.equal((await snapshot(page)).elements.find((e) => e.id === banana.id).state.selected, true);

  // The collapsed combobox: its options are hidden; select() opens it, then clicks.
  const size = snap.elements.find((e) => e.text === 'Size');
  assert.deepEqual(size.state, { expanded: false });
  assert.ok(!snap.elements.some((e) => e.text === 'Large'), 'hidden options are not elements');
  assert.deepEqual(await call(page, `select(${size.id}, 'Large')`), { success: true, outcome: 'dom_changed' });
  assert.match(await page.textContent('#log'), /sizes:Large;$/);
  const opened = await snapshot(page);
  assert.deepEqual(opened.elements.find((e) => e.id === size.id).state, { expanded: true });
  assert.deepEqual(opened.elements.find((e) => e.text === 'Large').state, { selected: true });
  assert.match((await call(page, `select(${fruit.id}, 'Cherry')`)).error, /no option matching "Cherry" \(options: "Apple", "Banana"\)/);
  await page.close();
});

test('wait_for_stable waits for a page rendering in stages; without it the page is captured half-built', async () => {
  const page = await open(env.browser.context, `${env.server.url}/stages.html`);
  await page.evaluate('startRender()');
  const early = await snapshot(page);
  assert.ok(!early.elements.some((e) => e.text === 'Checkout'), 'captured mid-render without the option');
  assert.equal(early.meta.stability, undefined);

  await page.reload();
  await page.waitForFunction(() => typeof window.sentience === 'object');
  await page.evaluate('startRender()');
  const settled = await snapshot(page, { wait_for_stable: true });
  assert.deepEqual(settled.elements.map((e) => e.text).sort(), ['Account', 'Cart', 'Checkout', 'Home', 'Products']);
  assert.equal(settled.meta.stability.settled, true);
  assert.deepEqual([settled.meta.stability.quiet_ms, settled.meta.stability.timeout_ms], [200, 3000]);
  assert.ok(settled.meta.stability.waited_ms >= 390, `waited ${settled.meta.stability.waited_ms} ms`);

  // A page that never stops mutating: the cap is hit and said so.
  await page.evaluate('startClock()');
  const capped = await snapshot(page, { wait_for_stable: { quiet_ms: 100, timeout_ms: 500 } });
  assert.equal(capped.meta.stability.settled, false);
  assert.ok(capped.meta.stability.waited_ms >= 500);
  assert.deepEqual([capped.meta.stability.quiet_ms, capped.meta.stability.timeout_ms], [100, 500]);

  for (const [stable, message] of [
    [{ timeout_ms: 60000 }, /timeout_ms must be at most 30000/],
    [{ quiet_ms: 0 }, /quiet_ms must be 1\.\.timeout_ms/],
    [{ quiet: 5 }, /unknown field `wait_for_stable\.quiet`, expected one of `quiet_ms`, `timeout_ms`/],
    ['yes', /`wait_for_stable` must be true, false or \{quiet_ms\?, timeout_ms\?\}/],
  ]) {
    const bad = await rawSnapshot(page, { wait_for_stable: stable });
    assert.equal(bad.status, 'error');
    assert.match(bad.error, message);
  }
  await page.close();
});

test('a summary click opens its details: expanded flips and the diff says changed', async () => {
  const page = await open(env.browser.context, `${env.server.url}/state.html`);
  const before = await snapshot(page);
  const summary = before.elements.find((e) => e.text === 'Return policy');
  assert.deepEqual([summary.role, summary.state], ['button', { expanded: false }]);
  assert.equal((await call(page, `click(${summary.id})`)).success, true);
  const after = await snapshot(page, { diff: true });
  assert.deepEqual(after.elements.find((e) => e.id === summary.id).state, { expanded: true });
  assert.ok(after.diff.changed.includes(summary.id), JSON.stringify(after.diff));
  await page.close();
});
