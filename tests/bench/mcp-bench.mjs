// `sentience mcp` against Playwright MCP (@playwright/mcp, pinned in
// tests/package-lock.json), side by side in one run, through the same MCP
// client (the official TypeScript SDK's), both on /usr/bin/chromium,
// headless, 1280×720, third-party hosts unresolvable (docs/mcp.md
// "Benchmark"; docs/benchmarks.md):
//
// 1. tokens of `browser_snapshot` on the 27 saved real pages (median,
//    worst), and whether the elements each page's obvious task needs
//    (tests/lib/real-pages.mjs `needs`) are in each answer;
// 2. tokens spent per completed task (every tool answer the agent reads:
//    navigation, snapshots, finds, actions) on multi-step tasks of the
//    demo store and local pages, each done by the same scripted agent
//    against both servers (it looks elements up by role and name in what
//    it has read, and asks for a snapshot — or, ours, a find — when the
//    element is not in it);
// 3. wall time per tool call: browser_snapshot (the real pages),
//    browser_click and browser_type on local pages.
//
//   bash pkg-scripts/bench.sh mcp          (after pkg-scripts/build.sh)
//   node tests/bench/mcp-bench.mjs [--repeat N]
//
// Tokens are OpenAI's o200k_base counts (cl100k_base in the JSON). Results:
// tables on stdout, JSON in .bench/mcp.json. A benchmark, not a test: it
// asserts nothing, but a task that does not complete is reported as such.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, PAGES as FIXTURES, CHROMIUM, startServer } from '../lib/harness.mjs';
import { count } from '../lib/tokens.mjs';
import { PAGES, MORE_PAGES, THIRD_PARTY_CUT, fetchPages, pageRoutes, splitOf } from '../lib/real-pages.mjs';
import { stdioServer, SENTIENCE, text } from '../lib/mcp.mjs';

const REPEAT = Number(process.argv[process.argv.indexOf('--repeat') + 1]) || 10;
const ALL = [...PAGES, ...MORE_PAGES];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-mcp-bench-'));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', ...THIRD_PARTY_CUT];

// ------------------------------------------------------------ the servers
async function startOurs() {
  const args = ['mcp', '--profile-dir', path.join(tmp, 'ours'), '--chromium', CHROMIUM, ...THIRD_PARTY_CUT.map((a) => `--browser-arg=${a}`)];
  return stdioServer(SENTIENCE, args);
}

async function startPlaywright() {
  const config = path.join(tmp, 'playwright.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      browser: { browserName: 'chromium', isolated: true, launchOptions: { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS }, contextOptions: { viewport: { width: 1280, height: 720 } } },
    }),
  );
  return stdioServer('node', [path.join(ROOT, 'tests/node_modules/@playwright/mcp/cli.js'), '--config', config, '--output-dir', path.join(tmp, 'pw-out')]);
}

/** Calls a tool, timed; {text, ms, isError}. */
async function tool(client, name, args = {}) {
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
  return { text: text(r), ms: performance.now() - t0, isError: Boolean(r.isError) };
}

const o200k = (t) => count(t).o200k;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];

// --------------------------------------------- reading what each answers
/** Our listing's elements: `12 button "Sign in" …`, with a diff's +/~ marks. */
function oursElements(t) {
  const out = [];
  for (const line of t.split('\n')) {
    const m = /^(?:[+~] )?(\d+) (\w+)(?: "((?:[^"\\]|\\.)*)")?/.exec(line);
    if (m) out.push({ id: Number(m[1]), role: m[2], name: (m[3] || '').replace(/\\(.)/g, '$1'), line: line.toLowerCase() });
  }
  return out;
}

/** Playwright's aria YAML: `- textbox "Username" [ref=e8]`. */
function playwrightElements(t) {
  const out = [];
  for (const line of t.split('\n')) {
    const m = /^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?(?: \[[^\]]*\])*? ?\[ref=([\w]+)\]/.exec(line);
    if (m) out.push({ ref: m[3], role: m[1], name: (m[2] || '').replace(/\\(.)/g, '$1') });
  }
  return out;
}

// ------------------------------------------------ 1. snapshot tokens
async function snapshotTokens(ours, pw, base) {
  const rows = [];
  for (const p of ALL) {
    const url = `${base}/${p.name}.html`;
    const row = { page: p.name, split: splitOf(p.name), task: p.task || null };
    for (const [side, s, parse] of [['ours', ours, oursElements], ['playwright', pw, playwrightElements]]) {
      await tool(s.client, 'browser_navigate', { url });
      const r = await tool(s.client, 'browser_snapshot');
      const c = count(r.text);
      const els = parse(r.text);
      // The task's elements, by role and name (the css-picked unlabelled
      // fields: a nameless element of that role).
      const needs = (p.needs || []).map(([roles, re]) => els.some((e) => roles.includes(e.role) && re.test(e.name)));
      row[side] = { tokens: c.o200k, cl100k: c.cl100k, ms: r.ms, elements: els.length, needs_found: needs.filter(Boolean).length, needs: needs.length, error: r.isError ? r.text.slice(0, 200) : undefined };
    }
    row.ratio = row.ours.tokens / row.playwright.tokens;
    rows.push(row);
    console.error(`${p.name}: ours ${row.ours.tokens} (${row.ours.needs_found}/${row.ours.needs}), playwright ${row.playwright.tokens} (${row.playwright.needs_found}/${row.playwright.needs})`);
  }
  return rows;
}

// ----------------------------------------------------- 2. tasks
// Each step: what to do to which element, named by role and a piece of its
// accessible name (case-insensitive).
function tasks(demo, fixtures) {
  return [
    {
      name: 'demo: log in', start: `${demo}/index.html`, done: 'Welcome, alice',
      steps: [['click', 'link', 'log in'], ['type', 'textbox', 'username', 'alice'], ['type', 'textbox', 'password', 's3cret'], ['click', 'button', 'log in']],
    },
    {
      name: 'demo: contact form', start: `${demo}/index.html`, done: 'Thank',
      steps: [['click', 'link', 'contact us'], ['type', 'textbox', 'name', 'Ada Lovelace'], ['type', 'textbox', 'email', 'ada@example.com'], ['type', 'textbox', 'message', 'Hello there'], ['click', 'button', 'send message']],
    },
    {
      name: 'demo: check out, pay', start: `${demo}/index.html`, done: 'Order confirmed',
      // Our listing names the card field by its placeholder ("1234 5678 …").
      steps: [['click', 'link', 'checkout'], ['type', 'textbox', 'card', '4242 4242 4242 4242', false, '1234 5678'], ['click', 'button', 'pay now']],
    },
    {
      name: 'demo: search', start: `${demo}/index.html`, done: '2 results for',
      steps: [['type', 'searchbox', 'search products', 'rust', true]],
    },
    {
      name: 'local: checkboxes', start: `${fixtures}/tasks/checkboxes.html`, done: 'Order sent: apples, cherries',
      steps: [['click', 'checkbox', 'apples'], ['click', 'checkbox', 'bananas'], ['click', 'checkbox', 'cherries'], ['click', 'button', 'submit']],
    },
    {
      name: 'local: drop-downs', start: `${fixtures}/tasks/dropdown.html`, done: 'Added: Large Black',
      // Our listing names a select by its chosen option (its label is not
      // in the snapshot): the agent tells them apart by their options.
      steps: [['select', 'combobox', 'size', 'Large', false, 'large'], ['select', 'combobox', 'colour', 'Black', false, 'black'], ['click', 'button', 'add to cart']],
    },
  ];
}

const matches = (e, role, name) => e.role === role && e.name.toLowerCase().includes(name);

/** The scripted agent on our server: reads the answers, finds when it must. */
async function runOurs(client, task) {
  let tokens = 0;
  let calls = 0;
  const read = async (name, args) => {
    const r = await tool(client, name, args);
    tokens += o200k(r.text);
    calls++;
    if (r.isError) throw new Error(`${name}: ${r.text}`);
    return r.text;
  };
  let known = await read('browser_navigate', { url: task.start });
  for (const [act, role, name, value, submit, inLine] of task.steps) {
    const hit = (e) => (inLine ? e.role === role && e.line.includes(inLine) : matches(e, role, name));
    let el = oursElements(known).reverse().find(hit);
    if (!el) {
      const found = await read('browser_find', { query: inLine ? `role=${role}` : `role=${role} text~'${name}'` });
      el = oursElements(found).find(hit);
      if (!el) throw new Error(`no ${role} "${name}"`);
    }
    const answer =
      act === 'click' ? await read('browser_click', { id: el.id })
        : act === 'type' ? await read('browser_type', { id: el.id, text: value, ...(submit ? { submit: true } : {}) })
          : await read('browser_select_option', { id: el.id, values: [value] });
    // After a navigation the answer is the new page's listing: start over.
    known = /the page navigated/.test(answer) ? answer : `${known}\n${answer}`;
  }
  const check = await tool(client, 'browser_wait_for', { text: task.done, time: 5 });
  return { tokens, calls, completed: !check.isError };
}

/** The same agent on Playwright MCP: a snapshot whenever it needs refs it does not have. */
async function runPlaywright(client, task) {
  let tokens = 0;
  let calls = 0;
  const read = async (name, args) => {
    const r = await tool(client, name, args);
    tokens += o200k(r.text);
    calls++;
    if (r.isError) throw new Error(`${name}: ${r.text}`);
    return r.text;
  };
  await read('browser_navigate', { url: task.start });
  let known = '';
  for (const [act, role, name, value, submit] of task.steps) {
    let el = playwrightElements(known).find((e) => matches(e, role, name));
    if (!el) {
      known = await read('browser_snapshot', {});
      el = playwrightElements(known).find((e) => matches(e, role, name));
      if (!el) throw new Error(`no ${role} "${name}"`);
    }
    const answer =
      act === 'click' ? await read('browser_click', { target: el.ref, element: `${role} ${name}` })
        : act === 'type' ? await read('browser_type', { target: el.ref, element: `${role} ${name}`, text: value, ...(submit ? { submit: true } : {}) })
          : await read('browser_select_option', { target: el.ref, element: `${role} ${name}`, values: [value] });
    // A new page (its URL in the answer): the refs read so far are gone.
    if (/- Page URL:/.test(answer)) known = answer.includes('```yaml') ? answer : '';
    else if (answer.includes('```yaml')) known = answer;
  }
  const check = await tool(client, 'browser_wait_for', { text: task.done, time: 5 });
  return { tokens, calls, completed: !check.isError };
}

async function taskTokens(ours, pw, demo, fixtures) {
  const rows = [];
  for (const task of tasks(demo, fixtures)) {
    const row = { task: task.name };
    for (const [side, s, run] of [['ours', ours, runOurs], ['playwright', pw, runPlaywright]]) {
      try {
        row[side] = await run(s.client, task);
      } catch (e) {
        row[side] = { tokens: NaN, calls: NaN, completed: false, error: e.message.slice(0, 300) };
      }
    }
    row.ratio = row.ours.tokens / row.playwright.tokens;
    rows.push(row);
    console.error(`${task.name}: ours ${row.ours.tokens} (${row.ours.completed ? 'done' : 'NOT done'}), playwright ${row.playwright.tokens} (${row.playwright.completed ? 'done' : 'NOT done'})`);
  }
  return rows;
}

// --------------------------------------------------- 3. call times
async function callTimes(ours, pw, demo, fixtures) {
  const out = {};
  for (const [side, s, parse, ref] of [['ours', ours, oursElements, (e) => ({ id: e.id })], ['playwright', pw, playwrightElements, (e) => ({ target: e.ref })]]) {
    const times = { click: [], type: [] };
    await tool(s.client, 'browser_navigate', { url: `${fixtures}/tasks/checkboxes.html` });
    let els = parse((await tool(s.client, 'browser_snapshot')).text);
    const box = els.find((e) => matches(e, 'checkbox', 'apples'));
    for (let i = 0; i < REPEAT; i++) times.click.push((await tool(s.client, 'browser_click', ref(box))).ms);
    await tool(s.client, 'browser_navigate', { url: `${demo}/login.html` });
    els = parse((await tool(s.client, 'browser_snapshot')).text);
    const field = els.find((e) => matches(e, 'textbox', 'username'));
    for (let i = 0; i < REPEAT; i++) times.type.push((await tool(s.client, 'browser_type', { ...ref(field), text: `user${i}` })).ms);
    out[side] = times;
  }
  return out;
}

// ---------------------------------------------------------------- main
const dir = fetchPages(ALL);
const pages = await startServer(dir, pageRoutes(dir, ALL));
const demo = await startServer(path.join(ROOT, 'demo'));
const fixtures = await startServer(FIXTURES);
const ours = await startOurs();
const pw = await startPlaywright();
let result;
try {
  const list = {};
  for (const [side, s] of [['ours', ours], ['playwright', pw]]) {
    const { tools } = await s.client.listTools();
    list[side] = { tools: tools.length, tokens: o200k(JSON.stringify(tools)) };
  }
  const snapshots = await snapshotTokens(ours, pw, pages.url);
  const taskRows = await taskTokens(ours, pw, demo.url, fixtures.url);
  const times = await callTimes(ours, pw, demo.url, fixtures.url);
  result = { chromium: CHROMIUM, repeat: REPEAT, tool_list: list, snapshots, tasks: taskRows, times };
} finally {
  await ours.close();
  await pw.close();
  await pages.close();
  await demo.close();
  await fixtures.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

// ---------------------------------------------------------------- report
const pad = (s, n) => String(s).padEnd(n);
const { snapshots, tasks: taskRows, times, tool_list: list } = result;
console.log(`tool list (tools/list, o200k tokens): ours ${list.ours.tools} tools, ${list.ours.tokens} tokens; Playwright MCP ${list.playwright.tools} tools, ${list.playwright.tokens} tokens\n`);
console.log('1. browser_snapshot on the 27 real saved pages (o200k tokens; task elements found / needed)\n');
console.log(`${pad('page', 20)}${pad('ours', 16)}${pad('Playwright MCP', 18)}ratio`);
for (const r of snapshots) {
  const need = (x) => (x.needs ? ` ${x.needs_found}/${x.needs}` : '');
  console.log(`${pad(r.page, 20)}${pad(r.ours.tokens + need(r.ours), 16)}${pad(r.playwright.tokens + need(r.playwright), 18)}${r.ratio.toFixed(3)}`);
}
const med = (side, rs = snapshots) => median(rs.map((r) => r[side].tokens));
const worst = (side) => Math.max(...snapshots.map((r) => r[side].tokens));
const needsAll = (side) => snapshots.filter((r) => r[side].needs).every((r) => r[side].needs_found === r[side].needs);
const needsCount = (side, rs) => `${rs.reduce((n, r) => n + (r[side].needs_found || 0), 0)}/${rs.reduce((n, r) => n + (r[side].needs || 0), 0)}`;
console.log(`\nmedian: ours ${med('ours')}, Playwright MCP ${med('playwright')} (ratio of medians ${(med('ours') / med('playwright')).toFixed(3)}; median of ratios ${median(snapshots.map((r) => r.ratio)).toFixed(3)})`);
console.log(`worst:  ours ${worst('ours')}, Playwright MCP ${worst('playwright')}`);
console.log(`task elements present on every page with a task: ours ${needsAll('ours')}, Playwright MCP ${needsAll('playwright')}`);
// The design / held-out split (tests/lib/real-pages.mjs splitOf, docs/benchmarks.md).
for (const half of ['design', 'held-out']) {
  const rs = snapshots.filter((r) => r.split === half);
  console.log(`${pad(half, 9)} (${rs.length} pages): median ours ${med('ours', rs)}, Playwright MCP ${med('playwright', rs)} (ratio ${(med('ours', rs) / med('playwright', rs)).toFixed(3)}); task elements ours ${needsCount('ours', rs)}, Playwright MCP ${needsCount('playwright', rs)}`);
}
console.log('');
console.log('2. tokens per completed task (every answer read; calls in brackets)\n');
for (const r of taskRows) {
  const cell = (x) => (x.completed ? `${x.tokens} (${x.calls})` : `NOT DONE ${x.error || ''}`.slice(0, 40));
  console.log(`${pad(r.task, 26)}${pad(cell(r.ours), 16)}${pad(cell(r.playwright), 18)}${Number.isFinite(r.ratio) ? r.ratio.toFixed(3) : '-'}`);
}
const sumT = (side) => taskRows.reduce((n, r) => n + (r[side].tokens || 0), 0);
console.log(`total: ours ${sumT('ours')}, Playwright MCP ${sumT('playwright')} (ratio ${(sumT('ours') / sumT('playwright')).toFixed(3)})\n`);
console.log(`3. wall time per call, ms (median / p90; ${REPEAT} calls each; snapshot: the 27 pages)\n`);
const snapMs = (side) => snapshots.map((r) => r[side].ms);
for (const [what, o, p] of [['browser_snapshot', snapMs('ours'), snapMs('playwright')], ['browser_click', times.ours.click, times.playwright.click], ['browser_type', times.ours.type, times.playwright.type]]) {
  console.log(`${pad(what, 20)}ours ${median(o).toFixed(0)} / ${p90(o).toFixed(0)}    Playwright MCP ${median(p).toFixed(0)} / ${p90(p).toFixed(0)}`);
}
fs.mkdirSync(path.join(ROOT, '.bench'), { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/mcp.json'), JSON.stringify(result, null, 2));
