// `sentience mcp` with its managed browser (docs/mcp.md), driven by the
// official MCP TypeScript SDK's client over stdio and over streamable HTTP:
// the tool list and its schemas, a login done the way an agent does it
// (snapshot → type → type → click → diff), a field in a cross-origin frame,
// two tabs, stale ids refused, careful mode through elicitation, the
// screenshot byte cap, sentience_run_task on the demo store, and the HTTP
// transport's guard (Host, Origin, token).
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, PAGES, startServer } from '../lib/harness.mjs';
import http from 'node:http';
import { sentienceStdio, sentienceHttp, httpClient, call, refused, text, idOf } from '../lib/mcp.mjs';

/** A POST with headers fetch() will not send as given (Host). */
function rawPost(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const DEMO = path.join(ROOT, 'demo');
const TOOLS = [
  'browser_navigate', 'browser_navigate_back', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_fill_form',
  'browser_select_option', 'browser_hover', 'browser_press_key', 'browser_scroll', 'browser_wait_for',
  'browser_take_screenshot', 'browser_tabs', 'browser_find', 'browser_close', 'sentience_run_task',
];

const env = {};
const profile = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-mcp-profile-'));

before(async () => {
  env.demo = await startServer(DEMO);
  env.pages = await startServer(PAGES);
  env.other = await startServer(PAGES); // a second origin (another port)
});

after(async () => {
  await env.demo.close();
  await env.pages.close();
  await env.other.close();
});

describe('over stdio, autonomous', () => {
  before(async () => {
    env.dir = profile();
    env.s = await sentienceStdio(['--profile-dir', env.dir]);
  });
  after(async () => {
    await env.s.close();
    fs.rmSync(env.dir, { recursive: true, force: true });
  });

  test('the tools are listed, each with a JSON Schema of its input', async () => {
    const { tools } = await env.s.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOLS].sort());
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(t.description && t.description.length < 200, `${t.name}: a short description`);
    }
    const type = tools.find((t) => t.name === 'browser_type').inputSchema;
    for (const k of ['id', 'ref', 'text', 'submit']) assert.ok(type.properties[k], `browser_type.${k}`);
    assert.deepEqual(type.required, ['text']);
    const snap = tools.find((t) => t.name === 'browser_snapshot').inputSchema;
    for (const k of ['max_tokens', 'query', 'in_viewport_only', 'diff']) assert.ok(snap.properties[k], `browser_snapshot.${k}`);
  });

  test('a login: snapshot, type, type, click, then the diff', async () => {
    const c = env.s.client;
    const nav = text(await call(c, 'browser_navigate', { url: `${env.demo.url}/login.html` }));
    // The address is the one asked: not repeated.
    assert.doesNotMatch(nav, /^Page:/);
    assert.match(nav, /textbox "Username"/);
    const listing = text(await call(c, 'browser_snapshot'));
    const user = idOf(listing, 'textbox', /username/i);
    const pass = idOf(listing, 'textbox', /password/i);
    const login = idOf(listing, 'button', /log in/i);
    // Typing changed nothing but the field: the answer is the outcome alone.
    const typed = text(await call(c, 'browser_type', { id: user, text: 'alice' }));
    assert.equal(typed, `Typed into ${user} textbox "Username".\n`);
    // `ref` is an alias of `id`.
    const typed2 = text(await call(c, 'browser_type', { ref: String(pass), text: 's3cret' }));
    assert.equal(typed2, `Typed into ${pass} textbox "Password".\n`, 'a password is never shown');
    // An asked-for diff still shows the values (the agent's own changes are
    // left out of action answers only).
    const typedDiff = text(await call(c, 'browser_snapshot', { diff: true }));
    assert.match(typedDiff, new RegExp(`~ ${user} textbox "alice"`), typedDiff);
    assert.doesNotMatch(typedDiff, /s3cret/);
    const clicked = text(await call(c, 'browser_click', { id: login }));
    assert.match(clicked, /the page navigated/);
    assert.match(clicked, /Page: http:\/\/127\.0\.0\.1:\d+\/welcome\.html\?user=alice/);
    assert.match(clicked, /link "Log out"/);
    const again = text(await call(c, 'browser_snapshot', { diff: true }));
    assert.match(again, /No change on the page/);
  });

  test('action answers catch what the page does: at once after typing, 50 ms later after a click', async () => {
    const c = env.s.client;
    const nav = text(await call(c, 'browser_navigate', { url: `${env.pages.url}/mcp/reactions.html` }));
    const coupon = idOf(nav, 'textbox', /coupon/i);
    const apply = idOf(nav, 'button', /apply/i);
    const open = idOf(nav, 'button', /open details/i);
    assert.match(nav, new RegExp(`${apply} button "Apply" disabled`));
    // The field's input handler enables the button: that is in the answer,
    // the typed value is not (the agent knows it).
    const typed = text(await call(c, 'browser_type', { id: coupon, text: 'SPRING' }));
    assert.equal(typed, `Typed into ${coupon} textbox "Coupon".\n~ ${apply} button "Apply"\n`);
    // The click's reaction comes 50 ms later, without touching the DOM first.
    const clicked = text(await call(c, 'browser_click', { id: open }));
    // (The new button pushes the fields below it down: counted as moved.)
    assert.match(clicked, /^Clicked \d+ button "Open details"\.\n\+ \d+ button "Confirm order"\n\(2 elements only moved\)\n$/, clicked);
  });

  test('a field in a cross-origin frame is typed into', async () => {
    const c = env.s.client;
    const o2 = `http://localhost:${env.other.port}`;
    await call(c, 'browser_navigate', { url: `${env.pages.url}/frames/top.html?o2=${encodeURIComponent(o2)}` });
    await call(c, 'browser_wait_for', { query: "text~'Cross-origin field'" });
    const listing = text(await call(c, 'browser_snapshot'));
    const field = idOf(listing, 'textbox', /Cross-origin field/);
    const typed = text(await call(c, 'browser_type', { id: field, text: 'hello', submit: true }));
    assert.match(typed, /Pressed Enter/);
    assert.match(typed, /button "Entered hello"/, typed);
  });

  test('two tabs: each has its own page and ids', async () => {
    const c = env.s.client;
    await call(c, 'browser_navigate', { url: `${env.demo.url}/index.html` });
    const first = text(await call(c, 'browser_tabs'));
    const firstId = Number(/^\* (\d+) /m.exec(first)[1]);
    const opened = text(await call(c, 'browser_tabs', { action: 'new', url: `${env.demo.url}/contact.html` }));
    const secondId = Number(/^Opened tab (\d+)/.exec(opened)[1]);
    assert.notEqual(secondId, firstId);
    assert.match(opened, /contact\.html/);
    const list = text(await call(c, 'browser_tabs'));
    assert.match(list, new RegExp(`^\\* ${secondId} .*contact\\.html`, 'm'));
    assert.match(list, new RegExp(`^  ${firstId} .*index\\.html`, 'm'));
    await call(c, 'browser_tabs', { action: 'select', tab: firstId });
    assert.match(text(await call(c, 'browser_snapshot')), /index\.html/);
    await call(c, 'browser_tabs', { action: 'close', tab: secondId });
    assert.doesNotMatch(text(await call(c, 'browser_tabs')), /contact\.html/);
  });

  test('a stale id is refused with what to do', async () => {
    const c = env.s.client;
    await call(c, 'browser_navigate', { url: `${env.demo.url}/login.html` });
    const user = idOf(text(await call(c, 'browser_snapshot')), 'textbox', /username/i);
    assert.match(await refused(c, 'browser_click', { id: 99999 }), /No element 99999 .*Take a new snapshot/);
    await call(c, 'browser_navigate', { url: `${env.demo.url}/search.html` });
    const msg = await refused(c, 'browser_type', { id: user, text: 'x' });
    assert.match(msg, new RegExp(`Element ${user} belongs to a page this tab has left .*search\\.html.*Take a new snapshot \\(browser_snapshot\\)`));
    // Ids never repeat within a tab: the new page's are all above the old ones.
    const ids = [...text(await call(c, 'browser_snapshot')).matchAll(/^(\d+) /gm)].map((m) => Number(m[1]));
    assert.ok(ids.length && ids.every((i) => i > user), `${ids} after ${user}`);
    assert.match(await refused(c, 'browser_click', {}), /Give `id` \(or `ref`\)/);
  });

  test('screenshots stay under their byte cap; element and annotated ones too', async () => {
    const c = env.s.client;
    await call(c, 'browser_navigate', { url: `${env.demo.url}/index.html` });
    for (const [args, cap] of [[{}, 200000], [{ type: 'png', max_bytes: 30000 }, 30000], [{ annotate: true, max_bytes: 60000 }, 60000]]) {
      const r = await call(c, 'browser_take_screenshot', args);
      const img = r.content.find((x) => x.type === 'image');
      assert.ok(img, 'an image');
      assert.equal(img.mimeType, args.type === 'png' ? 'image/png' : 'image/jpeg');
      const bytes = Buffer.from(img.data, 'base64').length;
      assert.ok(bytes <= cap, `${bytes} bytes > ${cap}`);
    }
    const listing = text(await call(c, 'browser_snapshot'));
    const link = idOf(listing, 'link', /.+/);
    const r = await call(c, 'browser_take_screenshot', { id: link, type: 'png' });
    const m = /(\d+)×(\d+) PNG/.exec(text(r));
    assert.ok(m && Number(m[1]) < 600 && Number(m[2]) < 200, `an element, not the viewport: ${text(r)}`);
  });

  test('sentience_run_task does the demo task with the built-in planner, with progress', async () => {
    const c = env.s.client;
    const progress = [];
    const r = await call(
      c,
      'sentience_run_task',
      { task: 'Log in as "alice" with password "s3cret"', url: `${env.demo.url}/index.html` },
      { onprogress: (p) => progress.push(p), timeout: 120000 },
    );
    const out = text(r);
    assert.match(out, /^Task complete/);
    assert.match(out, /welcome\.html\?user=alice/);
    assert.ok(progress.length >= 2, `progress notifications: ${progress.length}`);
  });
});

describe('careful mode', () => {
  before(async () => {
    env.dir2 = profile();
  });
  after(() => fs.rmSync(env.dir2, { recursive: true, force: true }));

  test('a payment is asked through elicitation: approved once, declined once', async () => {
    const answers = [{ action: 'accept', content: { approve: true } }, { action: 'decline' }, { action: 'accept', content: { approve: true } }];
    const asked = [];
    const s = await sentienceStdio(['--profile-dir', env.dir2, '--mode', 'careful'], {
      elicit: async (params) => {
        asked.push(params.message);
        return answers.shift();
      },
    });
    try {
      const c = s.client;
      await call(c, 'browser_navigate', { url: `${env.demo.url}/checkout.html` });
      const listing = text(await call(c, 'browser_snapshot'));
      const card = idOf(listing, 'textbox', /card|1234/i);
      const pay = idOf(listing, 'button', /pay now/i);
      await call(c, 'browser_type', { id: card, text: '4242 4242 4242 4242' });
      assert.match(asked[0], /type card data/);
      assert.match(await refused(c, 'browser_click', { id: pay }), /The user declined/);
      assert.match(asked[1], /Attempting to click 'Pay now'/);
      assert.match(text(await call(c, 'browser_snapshot')), /checkout\.html/, 'nothing was paid');
      const paid = text(await call(c, 'browser_click', { id: pay }));
      assert.match(paid, /confirmation\.html/);
      assert.equal(asked.length, 3);
    } finally {
      await s.close();
    }
  });

  test('without elicitation the payment is refused, saying how to approve it', async () => {
    const s = await sentienceStdio(['--profile-dir', env.dir2, '--mode', 'careful']);
    try {
      const c = s.client;
      await call(c, 'browser_navigate', { url: `${env.demo.url}/checkout.html` });
      const pay = idOf(text(await call(c, 'browser_snapshot')), 'button', /pay now/i);
      const msg = await refused(c, 'browser_click', { id: pay });
      assert.match(msg, /cannot ask the user/);
      assert.match(msg, /--yes/);
      assert.match(text(await call(c, 'browser_snapshot')), /checkout\.html/);
    } finally {
      await s.close();
    }
  });
});

describe('over streamable HTTP', () => {
  before(async () => {
    env.dir3 = profile();
    env.http = await sentienceHttp(['--profile-dir', env.dir3, '--token', 'sekrit']);
  });
  after(async () => {
    await env.http.stop();
    fs.rmSync(env.dir3, { recursive: true, force: true });
  });

  test('the same tools, a navigation and a click', async () => {
    const c = await httpClient(env.http.url, { token: 'sekrit' });
    try {
      const { tools } = await c.listTools();
      assert.equal(tools.length, TOOLS.length);
      const nav = text(await call(c, 'browser_navigate', { url: `${env.demo.url}/index.html` }));
      const login = idOf(nav, 'link', /log in/i);
      assert.match(text(await call(c, 'browser_click', { id: login })), /login\.html/);
    } finally {
      await c.close();
    }
  });

  test('the guard: token enforced, foreign Origin and Host refused', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers) =>
      fetch(env.http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(init) });
    const noToken = await post({});
    assert.equal(noToken.status, 401);
    assert.equal(noToken.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await post({ authorization: 'Bearer wrong' })).status, 401);
    const page = await post({ authorization: 'Bearer sekrit', origin: 'https://evil.example' });
    assert.equal(page.status, 403);
    assert.match((await page.json()).error.message, /Origin not allowed/);
    // A page rebound to 127.0.0.1 still says its own name (DNS rebinding).
    const { port } = new URL(env.http.url);
    const rebound = await rawPost(env.http.url, { authorization: 'Bearer sekrit', host: `evil.example:${port}` }, JSON.stringify(init));
    assert.equal(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).error.message, /Host not allowed/);
    // A simple cross-site POST (no preflight) is refused too.
    const simple = await fetch(env.http.url, { method: 'POST', headers: { 'content-type': 'text/plain', origin: 'http://127.0.0.1:1', authorization: 'Bearer sekrit' }, body: '{}' });
    assert.equal(simple.status, 403);
    assert.equal((await post({ authorization: 'Bearer sekrit' })).status, 200);
  });
});
