// MiniWoB++ through the HTML browse protocol (docs/contracts/browse.md): the
// same tasks, seeds and episode set-up as tests/bench/miniwob.mjs (the snapshot
// agent through the extension), but the agent sees only HTML: each step sends
// the page's HTML (crates/cli/src/browse_html.js, exactly what `sentience
// browse` sends) to the real `sentience serve`'s POST /browse (built-in policy:
// no LLM key), accepting our `press` and `wait` answers as `sentience browse`
// does, and does the answer's goto / click / type / press / wait in
// plain Chromium (no extension), as `sentience browse` does: the selector must
// match exactly one element, a click is Playwright's real mouse click (scrolled
// into view) with element.click() as the fallback, typing focuses, selects and
// inserts the text, then fires change. A measurement to report, not a CI test.
//
//   node tests/bench/miniwob-browse.mjs --html=DIR [--tasks=a,b] [--seeds=N]
//        [--seed-base=0] [--max-steps=15] [--max-seconds=20]
//        [--out=.bench/miniwob-browse.json] [--verbose]
//   (pkg-scripts/bench.sh miniwob-browse … installs MiniWoB++ and passes --html)
//
// Per episode: open the task page, startEpisode (tests/lib/miniwob.mjs), send
// `task` with the utterance, then loop: stop when the episode ended (MiniWoB
// ends it on the first submit), on `finish`, on a server error, when an
// action cannot be done, after MAX_STEPS actions or MAX_SECONDS; else do the
// action, wait for the page to settle, send `state`. success = reward > 0.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { ROOT, CHROMIUM, startServer } from '../lib/harness.mjs';
import { startAgentServer } from '../lib/agent.mjs';
import { benchOptions, startEpisode, pageState, splitSummary, splitLines, splitOf } from '../lib/miniwob.mjs';

const args = process.argv.slice(2);
const { HTML, LIST, SEEDS, SEED_BASE, MAX_STEPS, MAX_MS, EPISODE_MS, OUT, VERBOSE } = benchOptions(args, ROOT, '.bench/miniwob-browse.json');

// The client's own serialiser, comments stripped: a function of no arguments.
const SERIALISE = `(${fs.readFileSync(path.join(ROOT, 'crates/cli/src/browse_html.js'), 'utf8').replace(/^\/\/.*\n/gm, '')})()`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : null;
};
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const r1 = (x) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

/** One conversation over HTTP, with the Browse-Session header. */
function conversation(server) {
  let session = null;
  const times = [];
  return {
    times,
    async send(body) {
      const t0 = performance.now();
      const res = await fetch(`${server}/browse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(session ? { 'browse-session': session } : {}) },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      times.push(performance.now() - t0);
      session = res.headers.get('browse-session') || session;
      let json = null;
      try { json = JSON.parse(text); } catch { /* reported below */ }
      if (!res.ok || !json || !json.endpoint) return { error: `HTTP ${res.status}: ${text.slice(0, 200)}` };
      if (Object.keys(json)[0] !== 'reason') return { error: `reason is not the first key: ${text.slice(0, 200)}` };
      return json;
    },
  };
}

async function snapshot(page) {
  return page.evaluate(SERIALISE);
}

/** Waits until the HTML stays the same 200 ms (at most 3 s). */
async function settle(page) {
  let last = null;
  let since = Date.now();
  const start = Date.now();
  await sleep(50);
  while (Date.now() - start < 3000) {
    const now = await snapshot(page).then((s) => s.html).catch(() => null);
    if (now !== null && now === last) {
      if (Date.now() - since >= 200) return;
    } else {
      last = now;
      since = Date.now();
    }
    await sleep(50);
  }
}

async function perform(page, a) {
  if (a.endpoint === 'goto') {
    await page.goto(new URL(a.url, page.url()).href);
    return null;
  }
  if (a.endpoint === 'wait') {
    // Ours (docs/contracts/browse.md §2 "Keys and waits"): pause, then the page as it is.
    await sleep(Math.min(Number(a.ms) || 0, 10000));
    return null;
  }
  // `repeat`: a slider's arrow key, pressed once per step (at most 500).
  const times = Math.min(Math.max(Number(a.repeat) || 1, 1), 500);
  if (a.endpoint === 'press' && !a.selector) {
    for (let i = 0; i < times; i++) await page.keyboard.press(a.key);
    return null;
  }
  const count = await page.evaluate((s) => { try { return document.querySelectorAll(s).length; } catch (e) { return -1; } }, a.selector);
  if (count !== 1) return count === -1 ? `invalid selector ${a.selector}` : `selector ${a.selector} matches ${count} elements`;
  if (a.endpoint === 'click') {
    try {
      await page.locator(a.selector).click({ timeout: 1500 });
    } catch {
      await page.evaluate((s) => document.querySelector(s).click(), a.selector);
    }
    return null;
  }
  if (a.endpoint === 'type') {
    // A list: pick the option by its text, as `sentience browse` does.
    const chose = await page.evaluate(({ s, text }) => {
      const el = document.querySelector(s);
      if (!(el instanceof HTMLSelectElement)) return null;
      const norm = (x) => String(x).replace(/\s+/g, ' ').trim();
      const low = norm(text).toLowerCase();
      const opts = [...el.options];
      const pick = opts.find((o) => norm(o.text).toLowerCase() === low || o.value.toLowerCase() === low) || (low ? opts.find((o) => norm(o.text).toLowerCase().startsWith(low)) : undefined);
      if (!pick) return false;
      if (el.multiple) pick.selected = true; else el.value = pick.value;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      return true;
    }, { s: a.selector, text: a.text ?? '' });
    if (chose === false) return `no option ${JSON.stringify(a.text)} in ${a.selector}`;
    if (chose === true) return null;
    const ok = await page.evaluate((s) => {
      const el = document.querySelector(s);
      if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el.isContentEditable)) return false;
      el.focus();
      try { el.select(); } catch { /* not selectable */ }
      return true;
    }, a.selector);
    if (!ok) return `cannot type into ${a.selector}`;
    if (a.text) await page.keyboard.insertText(a.text);
    await page.evaluate((s) => document.querySelector(s).dispatchEvent(new Event('change', { bubbles: true })), a.selector);
    return null;
  }
  if (a.endpoint === 'press') {
    // The key in the element: focused first, as `sentience browse` does.
    await page.evaluate((s) => document.querySelector(s).focus(), a.selector);
    for (let i = 0; i < times; i++) await page.keyboard.press(a.key);
    return null;
  }
  return `unknown endpoint ${a.endpoint}`;
}

async function episode({ context, site, server, task, seed }) {
  const page = await context.newPage();
  const rec = { task, seed, actions: [] };
  try {
    await page.goto(`${site.url}/miniwob/${task}.html`);
    Object.assign(rec, await startEpisode(page, { seed, episodeMs: EPISODE_MS }));
    const conv = conversation(server);
    const t0 = Date.now();
    let snap = await snapshot(page);
    rec.htmlBytes = [snap.html.length];
    let answer = await conv.send({ endpoint: 'task', html: snap.html, action: rec.utterance, url: snap.url, accepts: ['press', 'wait'] });
    let st = null;
    for (;;) {
      st = await pageState(page);
      if (st.done === true) { rec.endedBy = 'episode'; break; }
      if (answer.error) { rec.endedBy = 'server-error'; rec.error = answer.error; break; }
      if (answer.endpoint === 'finish') {
        await sleep(300);
        st = await pageState(page);
        rec.endedBy = st.done === true ? 'episode' : 'finish';
        rec.finish = answer.reason;
        break;
      }
      if (rec.actions.length >= MAX_STEPS) { rec.endedBy = 'step-cap'; break; }
      if (Date.now() - t0 > MAX_MS) { rec.endedBy = 'time-cap'; break; }
      const failed = await perform(page, answer).catch((e) => e.message.split('\n')[0]);
      rec.actions.push({ endpoint: answer.endpoint, selector: answer.selector ?? null, text: answer.text ?? answer.key ?? (answer.ms !== undefined ? String(answer.ms) : null), url: answer.url ?? null, failed });
      if (failed) { rec.endedBy = 'action-failed'; rec.error = failed; break; }
      await settle(page);
      st = await pageState(page);
      if (st.done === true) { rec.endedBy = 'episode'; break; }
      snap = await snapshot(page);
      rec.htmlBytes.push(snap.html.length);
      answer = await conv.send({ endpoint: 'state', html: snap.html, url: snap.url });
    }
    rec.durationMs = Date.now() - t0;
    rec.answerMs = conv.times.map(r1);
    rec.reward = st.reward ?? 0;
    rec.rawReward = st.raw ?? 0;
    rec.done = st.done === true;
    rec.success = rec.done && rec.reward > 0;
    rec.perfect = rec.done && rec.rawReward >= 1;
    rec.steps = rec.actions.length;
  } catch (e) {
    rec.error = e.message.split('\n')[0];
    rec.success = false;
    rec.reward = rec.reward ?? 0;
    rec.steps = rec.actions.length;
    rec.answerMs = rec.answerMs ?? [];
  } finally {
    await page.close().catch(() => {});
  }
  return rec;
}

async function main() {
  const started = Date.now();
  const site = await startServer(HTML);
  const agent = await startAgentServer({ args: ['--in-memory'] });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const health = await fetch(`${agent.url}/health`).then((r) => r.json());
  const episodes = [];
  try {
    for (const task of LIST) {
      for (let i = 0; i < SEEDS; i++) {
        const rec = await episode({ context, site, server: agent.url, task, seed: SEED_BASE + i });
        episodes.push(rec);
        const acts = rec.actions.map((a) => `${a.endpoint}${a.selector ? ` ${a.selector}` : ''}${a.text !== null ? `=${JSON.stringify(a.text)}` : ''}${a.url ? ` ${a.url}` : ''}${a.failed ? ' ✗' : ''}`);
        const line = `${rec.success ? 'OK  ' : 'FAIL'} ${task}#${rec.seed} r=${(rec.reward ?? 0).toFixed(2)} steps=${rec.steps} ${rec.endedBy || rec.error} ${((rec.durationMs || 0) / 1000).toFixed(1)}s`;
        console.error(VERBOSE ? `${line}\n     "${rec.utterance}"\n     ${acts.join(' → ')}${rec.finish ? `\n     finish: ${rec.finish}` : ''}${rec.error ? `\n     error: ${rec.error}` : ''}` : line);
      }
    }
  } finally {
    await browser.close();
    await agent.kill();
    await site.close();
  }
  const perTask = LIST.map((task) => {
    const eps = episodes.filter((e) => e.task === task);
    return {
      task,
      split: splitOf(task),
      episodes: eps.length,
      successes: eps.filter((e) => e.success).length,
      perfect: eps.filter((e) => e.perfect).length,
      meanReward: mean(eps.map((e) => e.reward || 0)),
      avgSteps: mean(eps.map((e) => e.steps || 0)),
      endedBy: eps.reduce((m, e) => ((m[e.endedBy || 'error'] = (m[e.endedBy || 'error'] || 0) + 1), m), {}),
    };
  });
  const answerMs = episodes.flatMap((e) => e.answerMs || []);
  const bytes = episodes.flatMap((e) => e.htmlBytes || []);
  const summary = {
    episodes: episodes.length,
    successes: episodes.filter((e) => e.success).length,
    successRate: episodes.filter((e) => e.success).length / episodes.length,
    perfect: episodes.filter((e) => e.perfect).length,
    meanReward: mean(episodes.map((e) => e.reward || 0)),
    avgSteps: mean(episodes.map((e) => e.steps || 0)),
    answerRoundTripMs: { median: r1(quantile(answerMs, 0.5)), p95: r1(quantile(answerMs, 0.95)), n: answerMs.length },
    htmlBytes: { median: quantile(bytes, 0.5), max: bytes.length ? Math.max(...bytes) : null },
    wallSeconds: Math.round((Date.now() - started) / 1000),
    bySplit: splitSummary(episodes),
  };
  const result = {
    generatedAt: new Date().toISOString(),
    config: { html: HTML, tasks: LIST, seeds: Array.from({ length: SEEDS }, (_, i) => SEED_BASE + i), maxSteps: MAX_STEPS, maxSeconds: MAX_MS / 1000, episodeMaxTimeMs: EPISODE_MS, policy: health.policy, transport: 'HTTP POST /browse + Browse-Session' },
    summary,
    perTask,
    episodes,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  const fmt = (x, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
  console.log(`\nMiniWoB++ × HTML browse protocol (POST /browse, built-in policy: ${health.policy}), ${SEEDS} seeds/task, cap ${MAX_STEPS} steps / ${MAX_MS / 1000} s`);
  console.log(`${pad('task ((v): validation)', 32)}${lpad('success', 9)}${lpad('perfect', 9)}${lpad('reward', 8)}${lpad('steps', 7)}  ended by`);
  for (const t of perTask) {
    const ends = Object.entries(t.endedBy).map(([k, v]) => `${k}:${v}`).join(' ');
    console.log(`${pad(`${t.task}${t.split === 'validation' ? ' (v)' : ''}`, 32)}${lpad(`${t.successes}/${t.episodes}`, 9)}${lpad(`${t.perfect}/${t.episodes}`, 9)}${lpad(fmt(t.meanReward, 2), 8)}${lpad(fmt(t.avgSteps), 7)}  ${ends}`);
  }
  console.log(`${pad('ALL', 32)}${lpad(`${summary.successes}/${summary.episodes}`, 9)}${lpad(`${summary.perfect}/${summary.episodes}`, 9)}${lpad(fmt(summary.meanReward, 2), 8)}${lpad(fmt(summary.avgSteps), 7)}`);
  console.log(`\nsuccess rate (reward > 0) ${(summary.successRate * 100).toFixed(1)}%; answer round trip median ${fmt(summary.answerRoundTripMs.median)} ms, p95 ${fmt(summary.answerRoundTripMs.p95)} ms over ${summary.answerRoundTripMs.n} answers; HTML sent median ${summary.htmlBytes.median} bytes`);
  for (const l of splitLines(summary.bySplit)) console.log(l);
  console.log(`wall time ${summary.wallSeconds} s; results in ${path.relative(ROOT, OUT)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
