// Scale: generated pages of 10,000 and 50,000 elements (tests/lib/generate.mjs)
// through both engine paths. Nothing may be dropped silently (meta accounts
// for every candidate), ids must be unique and resolvable, limit must keep
// the top of the ranking, and the service-worker path must agree with the
// content-script path. Timings are reported as diagnostics, never asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, open, evaluate, snapshot, viaWorker } from '../lib/harness.mjs';
import { assertSchema } from '../lib/expect.mjs';
import { generatePageInfo, generatedRoute } from '../lib/generate.mjs';

const SEED = 1;
let server;
let browser;
const pages = new Map(); // n → Promise<page>, shared by the tests of one size

before(async () => {
  server = await startServer(undefined, { '/gen': generatedRoute() });
  browser = await launch();
}, { timeout: 60000 });
after(async () => {
  for (const p of pages.values()) await p.then((pg) => pg.close()).catch(() => {});
  await browser?.close();
  await server?.close();
}, { timeout: 60000 });

function pageOf(n) {
  if (!pages.has(n)) pages.set(n, open(browser.context, `${server.url}/gen?n=${n}&seed=${SEED}`));
  return pages.get(n);
}

// Every element an agent could act on, by the page's own reckoning: rendered
// (checkVisibility), outside aria-hidden subtrees; light DOM and open shadow
// roots apart. Each is an outerHTML-able element kept in window.__expected.
const EXPECTED_JS = `(() => {
  const SEL = 'a[href], button, input:not([type=hidden]), select, textarea, [onclick], .card';
  const usable = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && !el.closest('[aria-hidden="true"]');
  const light = [...document.querySelectorAll(SEL)].filter(usable);
  const shadow = [];
  for (const host of document.querySelectorAll('*')) {
    if (host.shadowRoot) shadow.push(...[...host.shadowRoot.querySelectorAll(SEL)].filter(usable));
  }
  const hiddenAll = [...document.querySelectorAll(SEL)].filter((el) => !usable(el));
  window.__expected = { light, shadow, hiddenAll };
  return { light: light.length, shadow: shadow.length, hidden: hiddenAll.length };
})()`;

// Resolves every id of `ids` through window.sentience_registry and compares
// with window.__expected: what was expected but not returned, and what was
// returned although hidden.
const coverageJs = (ids) => `(() => {
  const got = new Set();
  let unresolved = 0;
  for (const id of ${JSON.stringify(ids)}) {
    const el = window.sentience_registry[id];
    if (el) got.add(el); else unresolved++;
  }
  // A returned ancestor stands for its nested duplicates (one click target, one element).
  const covered = (el) => got.has(el) || [...got].some((g) => g !== el && g.contains(el) && !el.matches('input, select, textarea'));
  const html = (el) => {
    const host = el.getRootNode().host;
    const own = el.outerHTML.replace(/\\s+/g, ' ').slice(0, 160);
    return host ? host.outerHTML.replace(/></, '>#shadow-root(open) ' + el.getRootNode().innerHTML.slice(0, 120) + '<') : own;
  };
  const { light, shadow, hiddenAll } = window.__expected;
  const missedLight = light.filter((el) => !got.has(el) && !covered(el));
  const missedShadow = shadow.filter((el) => !got.has(el));
  const returnedHidden = hiddenAll.filter((el) => got.has(el));
  return {
    unresolved,
    missedLight: missedLight.length, missedLightExamples: missedLight.slice(0, 5).map(html),
    missedShadow: missedShadow.length, missedShadowExamples: missedShadow.slice(0, 3).map(html),
    returnedHidden: returnedHidden.length, returnedHiddenExamples: returnedHidden.slice(0, 5).map(html),
  };
})()`;

const key = (e) => `${e.id}\u0000${e.role}\u0000${e.text}`;
let full10k = null; // the content-script snapshot of the 10k page, for the worker comparison

test('10,000 elements: complete, valid, unique ids, limit keeps the top, ids resolve', { timeout: 60000 }, async (t) => {
  const info = generatePageInfo(10000, SEED);
  const page = await pageOf(10000);
  const t0 = performance.now();
  const snap = await snapshot(page);
  t.diagnostic(`10k snapshot (content script, incl. CDP transfer): ${Math.round(performance.now() - t0)} ms`);
  assert.equal(snap.status, 'success', `snapshot failed: ${snap.error}`);
  assertSchema(snap);
  const { meta } = snap;
  t.diagnostic(`meta ${JSON.stringify(meta)}; page has ${info.lightCount} light-DOM + ${info.shadowCount} shadow elements`);
  assert.equal(meta.engine_path, 'content_script');
  // No limit and no filter: every candidate is returned.
  assert.equal(meta.candidates, snap.elements.length, 'candidates must equal elements.length without limit/filter');
  assert.equal(meta.filtered_out, 0);
  assert.equal(meta.truncated_by_limit, 0);
  // The walker counts the light-DOM elements it visits; it skips the inside
  // of hidden subtrees and of <select>, so a little under the page's count.
  assert.ok(meta.elements_scanned <= info.lightCount, `elements_scanned ${meta.elements_scanned} > ${info.lightCount} elements in the page`);
  assert.ok(meta.elements_scanned >= 0.85 * info.lightCount, `elements_scanned ${meta.elements_scanned} is far below the page's ${info.lightCount} elements`);
  const ids = snap.elements.map((e) => e.id);
  assert.equal(new Set(ids).size, ids.length, 'element ids must be unique');
  full10k = snap;

  // Every id resolves; a sample of 50 (spread over the ranking) is checked
  // for the element's kind too.
  const step = Math.max(1, Math.floor(snap.elements.length / 50));
  const sample = snap.elements.filter((_, i) => i % step === 0).slice(0, 50);
  const resolved = await evaluate(page, `${JSON.stringify(sample.map((e) => e.id))}.map((id) => { const el = window.sentience_registry[id]; return el instanceof Element ? el.localName + (el.type ? ':' + el.type : '') : null; })`);
  const TAGS = { link: /^a$/, button: /^button(:|$)/, textbox: /^input:text$/, combobox: /^select/, checkbox: /^input:checkbox$/ };
  sample.forEach((e, i) => {
    assert.ok(resolved[i], `id ${e.id} (${e.role} ${JSON.stringify(e.text)}) does not resolve through sentience_registry`);
    if (TAGS[e.role]) assert.match(resolved[i], TAGS[e.role], `id ${e.id} is a ${e.role} but resolves to <${resolved[i]}>`);
  });

  // What the page itself says is actionable vs what came back.
  const expected = await evaluate(page, EXPECTED_JS);
  const cov = await evaluate(page, coverageJs(ids));
  t.diagnostic(`expected actionable: ${JSON.stringify(expected)}; coverage: ${JSON.stringify(cov)}`);
  assert.equal(cov.unresolved, 0, 'every returned id resolves');
  assert.deepEqual(cov.returnedHiddenExamples, [], `${cov.returnedHidden} hidden elements returned`);
  assert.deepEqual(cov.missedLightExamples, [], `${cov.missedLight} visible light-DOM controls missing`);

  // limit: the 50 most important, sorted, the rest accounted for.
  const top = await snapshot(page, { limit: 50 });
  assert.equal(top.status, 'success', `snapshot failed: ${top.error}`);
  assertSchema(top);
  assert.equal(top.elements.length, 50);
  assert.equal(top.meta.candidates, meta.candidates);
  assert.equal(top.meta.truncated_by_limit, top.meta.candidates - 50);
  for (let i = 1; i < top.elements.length; i++) {
    const a = top.elements[i - 1];
    const b = top.elements[i];
    assert.ok(a.importance > b.importance || (a.importance === b.importance && a.bbox.y <= b.bbox.y), `limit result not sorted at ${i}`);
  }
  const bestFull = snap.elements.map((e) => e.importance).sort((a, b) => b - a).slice(0, 50);
  assert.deepEqual(top.elements.map((e) => e.importance), bestFull, 'limit must keep the 50 highest importances');
});

test('10,000 elements: the service-worker path returns the same elements', { timeout: 60000 }, async (t) => {
  const page = await pageOf(10000);
  const cs = full10k || (await snapshot(page));
  assert.equal(cs.status, 'success', `snapshot failed: ${cs.error}`);
  const t0 = performance.now();
  const sw = await viaWorker(browser.worker, page, 'snapshot', null, { path: 'service_worker' });
  t.diagnostic(`10k snapshot via the service worker: ${Math.round(performance.now() - t0)} ms`);
  assert.equal(sw.status, 'success', `service-worker snapshot failed: ${sw.error}`);
  assertSchema(sw);
  assert.equal(sw.meta.engine_path, 'service_worker');
  assert.equal(sw.meta.candidates, sw.elements.length);
  const a = new Set(cs.elements.map(key));
  const b = new Set(sw.elements.map(key));
  const onlyCs = [...a].filter((k) => !b.has(k));
  const onlySw = [...b].filter((k) => !a.has(k));
  const show = (ks) => ks.slice(0, 5).map((k) => k.replaceAll('\u0000', ' | ')).join('\n  ');
  assert.ok(onlyCs.length === 0 && onlySw.length === 0, `paths disagree: ${onlyCs.length} only in content script:\n  ${show(onlyCs)}\n${onlySw.length} only in service worker:\n  ${show(onlySw)}`);
});

test('50,000 elements: completes, nothing dropped, page stays alive', { timeout: 90000 }, async (t) => {
  const info = generatePageInfo(50000, SEED);
  const tLoad = performance.now();
  const page = await pageOf(50000);
  t.diagnostic(`50k page (${info.lightCount} light-DOM elements, ${Math.round(info.html.length / 1024)} KiB) loaded in ${Math.round(performance.now() - tLoad)} ms`);
  // Timed in the page; a 10 ms interval timer measures the longest stretch
  // the main thread was unavailable while the snapshot ran.
  const r = await evaluate(page, `(async () => {
    let last = performance.now(), maxGap = 0, ticks = 0;
    const timer = setInterval(() => { const now = performance.now(); maxGap = Math.max(maxGap, now - last); last = now; ticks++; }, 10);
    const t0 = performance.now();
    const snap = await window.sentience.snapshot();
    const ms = performance.now() - t0;
    clearInterval(timer);
    maxGap = Math.max(maxGap, performance.now() - last);
    if (snap.status !== 'success') return { status: snap.status, error: snap.error, ms };
    const ids = snap.elements.map((e) => e.id);
    return { status: snap.status, ms, maxGap, ticks, meta: snap.meta, count: snap.elements.length, unique: new Set(ids).size, ids };
  })()`);
  t.diagnostic(`50k snapshot took ${Math.round(r.ms)} ms in the page; longest main-thread block ${Math.round(r.maxGap || 0)} ms, ${r.ticks} timer ticks during it`);
  assert.equal(r.status, 'success', `snapshot failed: ${r.error}`);
  t.diagnostic(`meta ${JSON.stringify(r.meta)}`);
  assert.equal(r.meta.candidates, r.count, 'no silent drop: candidates === elements.length');
  assert.equal(r.meta.filtered_out, 0);
  assert.equal(r.meta.truncated_by_limit, 0);
  assert.equal(r.unique, r.count, 'element ids must be unique');
  assert.ok(r.meta.elements_scanned <= info.lightCount && r.meta.elements_scanned >= 0.85 * info.lightCount, `elements_scanned ${r.meta.elements_scanned} vs ${info.lightCount} page elements`);
  const expected = await evaluate(page, EXPECTED_JS);
  const cov = await evaluate(page, coverageJs(r.ids));
  t.diagnostic(`expected actionable: ${JSON.stringify(expected)}; missed light ${cov.missedLight}, missed shadow ${cov.missedShadow}, hidden returned ${cov.returnedHidden}`);
  assert.equal(cov.unresolved, 0, 'every returned id resolves');
  assert.deepEqual(cov.missedLightExamples, [], `${cov.missedLight} visible light-DOM controls missing`);
  assert.deepEqual(cov.returnedHiddenExamples, [], `${cov.returnedHidden} hidden elements returned`);
});

test('buttons inside open shadow roots are snapshotted', { timeout: 30000 }, async (t) => {
  const page = await pageOf(10000);
  const snap = full10k || (await snapshot(page));
  const expected = await evaluate(page, EXPECTED_JS);
  const cov = await evaluate(page, coverageJs(snap.elements.map((e) => e.id)));
  t.diagnostic(`${cov.missedShadow} of ${expected.shadow} shadow-root controls missing, e.g. ${cov.missedShadowExamples[0] || '-'}`);
  assert.equal(cov.missedShadow, 0, `${cov.missedShadow} of ${expected.shadow} shadow-root controls missing, e.g.\n  ${cov.missedShadowExamples.join('\n  ')}`);
});
