// Seeing what the agent sees: window.sentience.showOverlay / clearOverlay
// (numbered boxes in a closed shadow root) and annotated screenshots
// (snapshot({screenshot: {annotate: true}})).
//
// The overlay's inside is unreachable from the page (closed root), so the
// test looks at it the way DevTools does: CDP DOM.getDocument({pierce}) for
// the boxes and their border boxes, and real pixels (a CDP screenshot, and
// the extension's own captures) decoded by Chromium in a canvas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, snapshot, evaluate, suite, engineLoaded, PAGES } from '../lib/harness.mjs';

// The overlay page under a policy that forbids inline styles (no
// 'unsafe-inline' in style-src): the page's own <style> is blocked; ours
// must not be.
const STYLE_CSP = "default-src 'self'; script-src 'self'; style-src 'self'";
const env = suite({
  trusted: true,
  routes: {
    '/overlay-strict-style.html': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': STYLE_CSP });
      res.end(fs.readFileSync(path.join(PAGES, 'overlay.html')));
    },
  },
});

// Pinned here on purpose: extension/overlay-palette.js must not drift silently.
const COLOUR = { button: '#be123c', textbox: '#1d4ed8', link: '#6d28d9', checkbox: '#047857' };
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const near = (px, hex, tol) => rgb(hex).every((c, i) => Math.abs(c - px[i]) <= tol);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The overlay as DevTools sees it: host, shadow root type, boxes with their border-box rects. */
async function overlayTree(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const hosts = [];
    const walk = (n) => {
      if (n.localName === 'sentience-overlay') hosts.push(n);
      for (const c of [...(n.children || []), ...(n.shadowRoots || [])]) walk(c);
    };
    walk(root);
    if (!hosts.length) return { hosts: 0, boxes: [] };
    const shadow = (hosts[0].shadowRoots || [])[0];
    const boxes = [];
    const collect = async (n) => {
      const attrs = n.attributes || [];
      const at = attrs.indexOf('data-id');
      if (at >= 0) {
        let rect = null;
        try {
          const { model } = await cdp.send('DOM.getBoxModel', { nodeId: n.nodeId });
          const q = model.border;
          rect = { x: q[0], y: q[1], width: q[2] - q[0], height: q[5] - q[1] };
        } catch {
          rect = null; // not rendered (display: none)
        }
        boxes.push({ id: Number(attrs[at + 1]), rect });
      }
      for (const c of n.children || []) await collect(c);
    };
    if (shadow) await collect(shadow);
    return { hosts: hosts.length, shadowType: shadow && shadow.shadowRootType, boxes };
  } finally {
    await cdp.detach();
  }
}

/** Decodes image data URLs with Chromium (a canvas in the test page) and reads pixels. */
async function pixels(page, dataUrl, points) {
  return page.evaluate(
    async ({ dataUrl, points }) => {
      const img = new Image();
      img.src = dataUrl;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      ctx.drawImage(img, 0, 0);
      return { width: img.naturalWidth, height: img.naturalHeight, px: points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data)) };
    },
    { dataUrl, points },
  );
}

async function pageShot(page) {
  return `data:image/png;base64,${(await page.screenshot({ type: 'png' })).toString('base64')}`;
}

const hostCount = (page) => evaluate(page, `document.querySelectorAll('sentience-overlay').length`);
const byRole = (snap, role) => snap.elements.find((e) => e.role === role);
// A point on the box's left border, half-way down (inside the element's box).
const leftEdge = (b) => [Math.round(b.x + 1), Math.round(b.y + b.height / 2)];

test('showOverlay draws one numbered box per element of the last snapshot, at its bbox, in a closed shadow root', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  await page.bringToFront();
  const snap = await snapshot(page);
  assert.equal(snap.status, 'success');
  assert.ok(snap.elements.length >= 4, `elements: ${snap.elements.length}`);
  const before = await pageShot(page);

  const res = await evaluate(page, 'window.sentience.showOverlay()');
  assert.deepEqual(res, { status: 'success', shown: snap.elements.length, unknown: [] });
  assert.equal(await hostCount(page), 1);
  // Closed: the page cannot reach inside.
  assert.equal(await evaluate(page, `document.querySelector('sentience-overlay').shadowRoot`), null);
  const tree = await overlayTree(page);
  assert.equal(tree.shadowType, 'closed');
  assert.deepEqual(tree.boxes.map((b) => b.id).sort((a, b) => a - b), snap.elements.map((e) => e.id).sort((a, b) => a - b));
  for (const b of tree.boxes) {
    const want = snap.elements.find((e) => e.id === b.id).bbox;
    for (const k of ['x', 'y', 'width', 'height']) assert.ok(Math.abs(b.rect[k] - want[k]) <= 1, `box ${b.id} ${k}: ${b.rect[k]} vs ${want[k]}`);
  }
  // Real pixels: each box's border is drawn in its role's colour, where the page had none.
  const after = await pageShot(page);
  for (const role of ['button', 'textbox', 'link']) {
    const e = byRole(snap, role);
    const [was] = (await pixels(page, before, [leftEdge(e.bbox)])).px;
    const [now] = (await pixels(page, after, [leftEdge(e.bbox)])).px;
    assert.ok(!near(was, COLOUR[role], 40), `${role}: the page itself is not ${COLOUR[role]} there (${was})`);
    assert.ok(near(now, COLOUR[role], 12), `${role}: box edge ${now} is ${COLOUR[role]}`);
  }
  // It never blocks the page: the point under a box still hits the element.
  const save = byRole(snap, 'button');
  const hit = await evaluate(page, `document.elementFromPoint(${save.bbox.x + 1}, ${save.bbox.y + save.bbox.height / 2}).id`);
  assert.equal(hit, 'save');
  await page.close();
});

test('boxes follow scrolling and resizing', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  const snap = await snapshot(page);
  const save = byRole(snap, 'button');
  await evaluate(page, `window.sentience.showOverlay({ ids: [${save.id}] })`);
  await evaluate(page, 'window.scrollTo(0, 60)');
  await sleep(150);
  let [box] = (await overlayTree(page)).boxes;
  assert.ok(Math.abs(box.rect.y - (save.bbox.y - 60)) <= 1, `after scroll: ${box.rect.y}`);
  // A layout change that fires neither scroll nor resize (the periodic refresh).
  await evaluate(page, `document.getElementById('save').style.left = '300px'`);
  await sleep(700);
  [box] = (await overlayTree(page)).boxes;
  assert.ok(Math.abs(box.rect.x - 300) <= 1, `after moving: ${box.rect.x}`);
  await page.setViewportSize({ width: 900, height: 600 });
  await evaluate(page, `document.getElementById('save').style.left = '50%'`);
  await sleep(700);
  [box] = (await overlayTree(page)).boxes;
  assert.ok(Math.abs(box.rect.x - 450) <= 1, `after resize: ${box.rect.x}`);
  await page.close();
});

test('clearOverlay removes it; duration clears it by itself; the page cannot remove it by accident', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  await snapshot(page);
  await evaluate(page, 'window.sentience.showOverlay()');
  // Removed by page code (a framework re-rendering <html>'s children): put back.
  await evaluate(page, `document.querySelector('sentience-overlay').remove()`);
  await sleep(50);
  assert.equal(await hostCount(page), 1);
  const cleared = await evaluate(page, 'window.sentience.clearOverlay()');
  assert.equal(cleared.status, 'success');
  assert.ok(cleared.cleared >= 4);
  assert.equal(await hostCount(page), 0);
  assert.deepEqual((await overlayTree(page)).hosts, 0);
  // Clearing twice is fine.
  assert.deepEqual(await evaluate(page, 'window.sentience.clearOverlay()'), { status: 'success', cleared: 0 });

  const res = await evaluate(page, 'window.sentience.showOverlay({ duration: 300 })');
  assert.equal(res.status, 'success');
  assert.equal(await hostCount(page), 1);
  await sleep(800);
  assert.equal(await hostCount(page), 0);
  await page.close();
});

test('a snapshot taken while the overlay is shown equals one taken without it', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  // Both from this document's own engine (its first snapshot would come from the worker's).
  await engineLoaded(page);
  const plain = await snapshot(page);
  await evaluate(page, 'window.sentience.showOverlay()');
  assert.equal(await hostCount(page), 1);
  const shown = await snapshot(page);
  assert.deepEqual(shown.elements, plain.elements);
  assert.deepEqual(shown.meta, plain.meta);
  // Also through the service worker's engine path, and with the action highlight up.
  await evaluate(page, `window.sentience.showOverlay()`);
  const viaSw = await env.browser.worker.evaluate(
    async ({ url, id }) => {
      const [tab] = await chrome.tabs.query({ url });
      const lit = await globalThis.sentienceCall(tab.id, 'highlight', { id, label: 'click' });
      if (!lit.success) throw new Error(`highlight failed: ${lit.error}`);
      return globalThis.sentienceCall(tab.id, 'snapshot', null, { path: 'service_worker' });
    },
    { url: page.url(), id: plain.elements[0].id },
  );
  assert.deepEqual(viaSw.elements, plain.elements);
  assert.deepEqual({ ...viaSw.meta, engine_path: 'content_script' }, plain.meta);
  await page.close();
});

test("page CSS cannot hide or restyle the overlay (even * { display: none !important })", async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  await page.bringToFront();
  const snap = await snapshot(page);
  await evaluate(page, 'window.sentience.showOverlay()');
  await evaluate(
    page,
    `document.head.appendChild(Object.assign(document.createElement('style'), { textContent:
      'sentience-overlay, html > :last-child, div, span { display: none !important; visibility: hidden !important; opacity: 0 !important; transform: translate(500px, 500px) !important; z-index: -1 !important; }' +
      ' * { border-color: lime !important; color: lime !important; font-size: 40px !important; }' }))`,
  );
  await sleep(100);
  const shot = await pageShot(page);
  const button = byRole(snap, 'button');
  const [px] = (await pixels(page, shot, [leftEdge(button.bbox)])).px;
  assert.ok(near(px, COLOUR.button, 12), `box edge under hostile CSS: ${px}`);
  const tree = await overlayTree(page);
  const box = tree.boxes.find((b) => b.id === button.id);
  assert.ok(Math.abs(box.rect.x - button.bbox.x) <= 1 && Math.abs(box.rect.width - button.bbox.width) <= 1, JSON.stringify(box.rect));
  // The bluntest rule of all: the page's elements vanish, the host stays rendered.
  await evaluate(page, `document.head.appendChild(Object.assign(document.createElement('style'), { textContent: '* { display: none !important; }' }))`);
  const style = await evaluate(page, `(() => { const s = getComputedStyle(document.querySelector('sentience-overlay')); return [s.display, s.position, s.zIndex, s.pointerEvents]; })()`);
  assert.deepEqual(style, ['block', 'fixed', '2147483647', 'none']);
  await page.close();
});

test('showOverlay: ids pick elements, unknown ids are reported, bad arguments are errors (never throws)', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  const none = await evaluate(page, 'window.sentience.showOverlay()');
  assert.equal(none.status, 'error');
  assert.match(none.error, /no snapshot yet/);
  const snap = await snapshot(page);
  const [a, b] = snap.elements;
  const res = await evaluate(page, `window.sentience.showOverlay({ ids: [${a.id}, 999999, ${b.id}, ${a.id}, "x"] })`);
  assert.deepEqual(res, { status: 'success', shown: 2, unknown: [999999, 'x'] });
  assert.deepEqual((await overlayTree(page)).boxes.map((x) => x.id).sort(), [a.id, b.id].sort());
  // An element removed since the snapshot is reported, not drawn.
  await evaluate(page, `window.sentience_registry[${a.id}].remove()`);
  const gone = await evaluate(page, `window.sentience.showOverlay({ ids: [${a.id}, ${b.id}] })`);
  assert.deepEqual(gone, { status: 'success', shown: 1, unknown: [a.id] });
  for (const bad of ['5', '{ ids: 5 }', '{ duration: -1 }', '{ duration: "1s" }', '{ ids: [() => 1] }', '[1]']) {
    const r = await evaluate(page, `window.sentience.showOverlay(${bad})`);
    assert.equal(r.status, 'error', bad);
    assert.equal(typeof r.error, 'string', bad);
    assert.doesNotMatch(r.error, /\n\s+at /, `${bad}: no stack`);
  }
  await page.close();
});

test('snapshot({screenshot: {annotate: true}}) draws the same boxes on the screenshot, and only there', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  await page.bringToFront();
  const plain = await snapshot(page, { screenshot: true });
  const ann = await snapshot(page, { screenshot: { annotate: true } });
  assert.equal(ann.status, 'success');
  assert.equal(ann.screenshot_format, 'png');
  assert.match(ann.screenshot, /^data:image\/png;base64,iVBOR/);
  assert.deepEqual(ann.elements, plain.elements);
  // Compare every pixel: differences only inside the boxes (+ their labels).
  const zones = ann.elements.filter((e) => e.in_viewport).map((e) => ({ x: e.bbox.x - 2, y: e.bbox.y - 16, w: e.bbox.width + 64, h: e.bbox.height + 18 }));
  const diff = await page.evaluate(
    async ({ a, b, zones }) => {
      const load = async (url) => {
        const img = new Image();
        img.src = url;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.naturalWidth;
        c.height = img.naturalHeight;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, c.width, c.height);
      };
      const [pa, pb] = [await load(a), await load(b)];
      let outside = 0;
      let inside = 0;
      for (let y = 0; y < pa.height; y++) {
        for (let x = 0; x < pa.width; x++) {
          const i = (y * pa.width + x) * 4;
          if (pa.data[i] === pb.data[i] && pa.data[i + 1] === pb.data[i + 1] && pa.data[i + 2] === pb.data[i + 2]) continue;
          if (zones.some((z) => x >= z.x && x < z.x + z.w && y >= z.y && y < z.y + z.h)) inside++;
          else outside++;
        }
      }
      return { sizes: [pa.width, pa.height, pb.width, pb.height], outside, inside };
    },
    { a: plain.screenshot, b: ann.screenshot, zones },
  );
  assert.deepEqual(diff.sizes, [1280, 800, 1280, 800]);
  assert.equal(diff.outside, 0, 'pixels changed away from every box');
  assert.ok(diff.inside > 200, `pixels changed around the boxes: ${diff.inside}`);
  for (const role of ['button', 'textbox', 'link']) {
    const e = byRole(ann, role);
    const [was] = (await pixels(page, plain.screenshot, [leftEdge(e.bbox)])).px;
    const [now] = (await pixels(page, ann.screenshot, [leftEdge(e.bbox)])).px;
    assert.ok(!near(was, COLOUR[role], 40), `${role} unannotated: ${was}`);
    assert.ok(near(now, COLOUR[role], 12), `${role} annotated: ${now} is ${COLOUR[role]}`);
  }
  // JPEG: re-encoded at the requested quality, still decodes, boxes still there.
  const jpeg = await snapshot(page, { screenshot: { format: 'jpeg', quality: 90, annotate: true } });
  assert.equal(jpeg.screenshot_format, 'jpeg');
  assert.match(jpeg.screenshot, /^data:image\/jpeg;base64,\/9j\//);
  const j = await pixels(page, jpeg.screenshot, [leftEdge(byRole(jpeg, 'button').bbox)]);
  assert.deepEqual([j.width, j.height], [1280, 800]);
  assert.ok(near(j.px[0], COLOUR.button, 48), `jpeg box edge: ${j.px[0]}`);
  // annotate: false is a plain screenshot.
  const off = await snapshot(page, { screenshot: { annotate: false } });
  const o = await pixels(page, off.screenshot, [leftEdge(byRole(off, 'button').bbox)]);
  assert.ok(!near(o.px[0], COLOUR.button, 40));
  await page.close();
});

test('annotated screenshots scale the boxes by devicePixelRatio', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  await page.bringToFront();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1000, height: 700, deviceScaleFactor: 2, mobile: false });
  try {
    assert.equal(await evaluate(page, 'devicePixelRatio'), 2);
    const ann = await snapshot(page, { screenshot: { annotate: true } });
    assert.equal(ann.status, 'success', ann.error);
    const e = byRole(ann, 'button');
    const dim = await pixels(page, ann.screenshot, [[0, 0]]);
    const s = dim.width / 1000;
    const [px] = (await pixels(page, ann.screenshot, [[Math.round((e.bbox.x + 1) * s), Math.round((e.bbox.y + e.bbox.height / 2) * s)]])).px;
    assert.ok(near(px, COLOUR.button, 12), `scale ${s}: ${px}`);
  } finally {
    await cdp.send('Emulation.clearDeviceMetricsOverride').catch(() => {});
    await cdp.detach();
  }
  await page.close();
});

test('invalid annotate values are clear option errors', async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  for (const bad of ['{ screenshot: { annotate: "yes" } }', '{ screenshot: { annotate: 1 } }', '{ screenshot: { anotate: true } }']) {
    const r = await evaluate(page, `window.sentience.snapshot(${bad})`);
    assert.equal(r.status, 'error', bad);
    assert.match(r.error, /^invalid snapshot options: .*annotate\?: true\|false/, bad);
  }
  await page.close();
});

test("the overlay appearing or going during an action is not the page changing (outcome stays 'none')", async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay.html`);
  const snap = await snapshot(page);
  const save = byRole(snap, 'button'); // no handler: clicking it changes nothing
  // The boxes clear themselves 80 ms into the click's settle window (>= 120 ms).
  const res = await evaluate(page, `window.sentience.showOverlay({ duration: 80 }).then(() => window.sentience.click(${save.id}))`);
  assert.deepEqual(res, { success: true, outcome: 'none' });
  assert.equal(await hostCount(page), 0);
  await page.close();
});

test("a page CSP without 'unsafe-inline' styles does not stop the overlay", async () => {
  const page = await open(env.browser.context, `${env.server.url}/overlay-strict-style.html`);
  await page.bringToFront();
  // The policy is in force: the page's own inline <style> was blocked.
  assert.equal(await evaluate(page, `getComputedStyle(document.getElementById('save')).position`), 'static');
  const snap = await snapshot(page);
  const button = byRole(snap, 'button');
  const before = await pageShot(page);
  const res = await evaluate(page, 'window.sentience.showOverlay()');
  assert.equal(res.status, 'success');
  const after = await pageShot(page);
  // Decoded in another tab: this page's policy forbids data: images too.
  const decoder = await open(env.browser.context, `${env.server.url}/overlay.html`);
  const [was] = (await pixels(decoder, before, [leftEdge(button.bbox)])).px;
  const [now] = (await pixels(decoder, after, [leftEdge(button.bbox)])).px;
  assert.ok(!near(was, COLOUR.button, 40), `page: ${was}`);
  assert.ok(near(now, COLOUR.button, 12), `box edge under a strict style-src: ${now}`);
  await decoder.close();
  await page.close();
});
