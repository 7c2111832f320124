// sentience-playwright against a real Chromium with the packaged extension:
// launch, typed snapshots (validated against snapshot.schema.json), format
// under budget, query, actions on the demo store incl. a cross-origin frame
// of a trusted origin, waitFor/expect passing and failing, a strict-CSP page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as s from 'sentience-playwright';
import { startSite, ROOT } from './site.mjs';

// The schema's validator, from the project's test tools (tests/node_modules).
const require = createRequire(path.join(ROOT, 'tests/package.json'));
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const SCHEMA = JSON.parse(fs.readFileSync(path.join(ROOT, 'snapshot.schema.json'), 'utf8'));
const validate = ajv.compile(SCHEMA);
// The same schema with no key allowed beyond those it names (the schema
// leaves the top level and `meta` open): the snapshot is exactly the contract.
const closed = structuredClone(SCHEMA);
delete closed.$id;
closed.definitions.Success.additionalProperties = false;
closed.definitions.Success.properties.meta.additionalProperties = false;
const validateExactly = ajv.compile(closed);

// "Name.key" for each key of the success model, a $ref naming its
// definition and a nested object its parent's path (as contract.ts's classes).
const resolve = (node, name) => (node.$ref ? [SCHEMA.definitions[node.$ref.split('/').pop()], node.$ref.split('/').pop()] : [node, name]);

/** Every field of the schema's success model. */
function schemaFields(node = SCHEMA.definitions.Success, name = 'Success', out = new Set()) {
  [node, name] = resolve(node, name);
  if (node.items) return schemaFields(node.items, name, out);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    if (out.has(`${name}.${key}`)) continue;
    out.add(`${name}.${key}`);
    schemaFields(child, `${name}.${key}`, out);
  }
  return out;
}

/** The fields a snapshot has, walked along the schema. */
function valueFields(value, node = SCHEMA.definitions.Success, name = 'Success', out = new Set()) {
  [node, name] = resolve(node, name);
  if (Array.isArray(value)) {
    for (const v of value) valueFields(v, node.items ?? {}, name, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      out.add(`${name}.${key}`);
      valueFields(child, node.properties?.[key] ?? {}, `${name}.${key}`, out);
    }
  }
  return out;
}

let site;
let browser;
before(async () => {
  site = await startSite();
  browser = await s.launch({ trust: [site.url] });
});
after(async () => {
  await browser?.close();
  await site?.close();
});

async function open(url) {
  const page = await browser.context.newPage();
  await page.goto(url);
  return page;
}

test('launch loads the packaged extension and trusts the origin', async () => {
  assert.match(browser.worker.url(), /\/extension\/service-worker\.js$/);
  assert.ok(fs.existsSync(path.join(s.extensionPath(), 'pkg/sentience_wasm_bg.wasm')), s.extensionPath());
  assert.deepEqual(await browser.trust([]), [site.url]);
  assert.throws(() => s.originOf('javascript:1'), /not an http\(s\) origin/);
});

for (const fixture of ['state', 'login', 'labels']) {
  test(`snapshot of ${fixture}.html is the contract, field by field`, async () => {
    const page = await open(`${site.url}/pages/${fixture}.html`);
    const snap = await s.snapshot(page, { diff: true });
    assert.ok(validate(snap), JSON.stringify(validate.errors));
    const expected = JSON.parse(fs.readFileSync(path.join(ROOT, `tests/pages/${fixture}.expected.json`), 'utf8')).expect;
    for (const want of expected) {
      const hit = snap.elements.find((e) => e.role === want.role && e.text === (want.text ?? null));
      assert.ok(hit, `${want.role} ${want.text}`);
      if (want.state) assert.deepEqual(hit.state, want.state);
    }
    await page.close();
  });
}

test('every field of the model comes back from the extension, and nothing else', async () => {
  const seen = new Set();
  const runs = ['state', 'login', 'labels', 'card-grid'].map((n) => [`${site.url}/pages/${n}.html`, {}]);
  runs.push([`${site.url}/frame.html`, { screenshot: true }], [`${site.other}/frame.html`, {}]);
  const page = await browser.context.newPage();
  for (const [url, options] of runs) {
    await page.goto(url);
    const snap = await s.snapshot(page, { diff: true, wait_for_stable: { quiet_ms: 50 }, ...options });
    assert.ok(validateExactly(snap), `${url}: ${JSON.stringify(validateExactly.errors)}`);
    valueFields(snap, undefined, undefined, seen);
  }
  const every = schemaFields();
  assert.ok(every.has('State.options.selected') && every.has('Frames.skipped.reason'), [...every].join(' '));
  assert.deepEqual([...every].filter((f) => !seen.has(f)).sort(), []);
  await page.close();
});

test('bad options and bad queries throw the extension\'s message', async () => {
  const page = await open(`${site.url}/demo/index.html`);
  await assert.rejects(s.snapshot(page, { limt: 3 }), (e) => e instanceof s.SentienceError && /unknown field `limt`/.test(e.message));
  await assert.rejects(s.query(page, 'role='), (e) => e instanceof s.QueryError && e.position === 5);
  await page.goto('about:blank');
  await assert.rejects(s.snapshot(page), s.NotAvailableError);
  await page.close();
});

test('format stays under its budget; query and find', async () => {
  const page = await open(`${site.url}/demo/index.html`);
  const small = await s.format(page, { max_tokens: 40 });
  assert.ok(small.split(/\s+/).filter(Boolean).length <= 40, small);
  assert.ok((await s.format(page)).length > small.length);
  assert.equal((await s.query(page, "role=button text~'add to cart'")).length, 3);
  assert.equal((await s.find(page, 'role=searchbox')).role, 'searchbox');
  assert.equal(await s.find(page, "text='Nothing like this'"), null);
  await page.close();
});

test('diff: what was added since the previous snapshot, or since a given one', async () => {
  const page = await open(`${site.url}/demo/index.html`);
  const first = await s.snapshot(page);
  await page.evaluate(() => document.querySelector('main').append(Object.assign(document.createElement('button'), { textContent: 'New' })));
  const d = await s.diff(page);
  assert.equal(d.since, first.snapshot_id);
  const added = await s.find(page, "text='New'");
  assert.ok(d.added.includes(added.id), JSON.stringify(d));
  assert.deepEqual(d.removed, []);
  const again = await s.diff(page, first.snapshot_id);
  assert.equal(again.since, first.snapshot_id);
  assert.ok(again.added.includes(added.id));
  await page.close();
});

test('actions on the demo store: type, click (navigates), press Enter', async () => {
  const page = await open(`${site.url}/demo/login.html`);
  await s.typeText(page, await s.find(page, 'role=textbox text~user'), 'alice');
  await s.typeText(page, await s.find(page, 'role=textbox text~password'), 's3cret');
  const r = await s.click(page, await s.find(page, "role=button text~'log in'"));
  assert.deepEqual(r, { success: true, outcome: 'navigated' });
  assert.match(page.url(), /welcome\.html\?user=alice&password=s3cret/);
  await page.goto(`${site.url}/demo/index.html`);
  await s.typeText(page, await s.find(page, 'role=searchbox'), 'rake');
  assert.equal((await s.press(page, 'Enter')).outcome, 'navigated');
  assert.match(page.url(), /search\.html\?q=rake/);
  const bad = await s.click(page, 987654);
  assert.equal(bad.success, false);
  assert.match(bad.error, /987654/);
  await page.close();
});

test('a cross-origin frame of a trusted origin: seen and acted in', async () => {
  const page = await open(`${site.url}/frame.html`);
  const snap = await s.snapshot(page);
  assert.equal(snap.frames.included.length, 1);
  await s.typeText(page, await s.find(page, 'role=textbox text~user'), 'bob');
  assert.ok((await s.click(page, await s.find(page, "role=button text~'log in'"))).success);
  const frame = page.frames().find((f) => f.parentFrame());
  await frame.waitForURL(/welcome\.html\?user=bob/);
  // From an untrusted origin, the same frame is skipped.
  await page.goto(`${site.other}/frame.html`);
  assert.deepEqual((await s.snapshot(page)).frames.skipped.map((f) => f.reason), ['cross_origin']);
  assert.equal(await s.find(page, 'role=textbox'), null);
  await page.close();
});

test('waitFor and expect pass and fail with clear messages', async () => {
  const page = await open(`${site.url}/late.html`);
  assert.equal((await s.waitFor(page, 'role=button text=Arrived', { timeout: 5000 }))[0].text, 'Arrived');
  await s.expect(page).notToHave('text=Going');
  assert.equal((await s.expect(page).toHave('role=button', { count: 2 })).length, 2);
  await assert.rejects(s.expect(page, { timeout: 300 }).toHave('role=link text=Nowhere'), (e) => {
    assert.match(e.message, /^expect\(page\)\.toHave\("role=link text=Nowhere"\) failed: waited 300 ms for an element matching "role=link text=Nowhere" on http:\/\/127\.0\.0\.1:\d+\/late\.html: nothing matched\./);
    assert.match(e.message, /Stay/);
    return true;
  });
  await assert.rejects(s.expect(page, { timeout: 300 }).notToHave('text=Stay'), /1 still matched: #\d+ button "Stay"/);
  await assert.rejects(s.expect(page, { timeout: 300 }).toHave('role=button', { count: 5 }), /count: 5.*failed: 2 matched/s);
  await assert.rejects(s.waitFor(page, 'rol=button'), s.QueryError);
  await page.close();
});

test('select an option, by value and by text; a missing one says why', async () => {
  const page = await open(`${site.url}/pages/state.html`);
  const country = await s.find(page, 'role=combobox text=Country');
  assert.ok((await s.select(page, country, 'de')).success);
  assert.equal((await s.find(page, 'role=combobox text=Country')).state.value, 'Germany');
  assert.ok((await s.select(page, country, 'France')).success);
  assert.equal(await page.evaluate(() => document.querySelector('select').value), 'fr');
  const bad = await s.select(page, country, 'Spain');
  assert.equal(bad.success, false);
  assert.match(bad.error, /no option matching/);
  assert.equal((await s.select(page, country, 'Italy')).success, false, 'a disabled option is not chosen');
  assert.equal(await page.evaluate(() => document.querySelector('select').value), 'fr');
  await page.close();
});

test('hover shows a hover-only menu; scroll brings an element into view and back', async () => {
  const page = await open(`${site.url}/hover.html`);
  assert.equal(await s.find(page, "text='Garden tools'"), null);
  const r = await s.hover(page, await s.find(page, 'role=button text=Products'));
  assert.deepEqual(r, { success: true, outcome: 'dom_changed' });
  assert.ok(await s.find(page, "text='Garden tools'"));
  const far = await s.find(page, "text='Far away'");
  assert.equal(far.in_viewport, false);
  assert.ok((await s.scroll(page, far)).success);
  assert.equal((await s.find(page, "text='Far away'")).in_viewport, true);
  assert.ok((await s.scroll(page, { dy: -5000 })).success);
  assert.equal((await s.find(page, "text='Far away'")).in_viewport, false);
  await page.close();
});

test('an annotated screenshot: numbered boxes drawn, then gone', async () => {
  const page = await open(`${site.url}/demo/index.html`);
  const plain = await s.screenshot(page, { annotate: false });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-shot-')), 'a.png');
  try {
    const shot = await s.screenshot(page, { path: file });
    assert.ok(shot.data.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])));
    assert.ok(fs.readFileSync(file).equals(shot.data));
    assert.ok(!shot.data.equals(plain.data) && shot.snapshot.elements.length > 0);
    assert.ok((await s.screenshot(page, { annotate: false })).data.equals(plain.data), 'the boxes are cleared afterwards');
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
  await page.close();
});

test('a strict-CSP page: the service worker computes', async () => {
  const page = await open(`${site.url}/pages/strict.csp.html`);
  const snap = await s.snapshot(page);
  assert.equal(snap.meta.engine_path, 'service_worker');
  assert.ok(validate(snap), JSON.stringify(validate.errors));
  assert.ok(await s.find(page, 'role=button'));
  await page.close();
});
