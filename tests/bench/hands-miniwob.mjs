// `sentience act` on MiniWoB++ task pages through a real `sentience tools`
// (docs/benchmarks.md, "`sentience act` through the tool server"): the built-in
// planner over the tool server's snapshot, the `dom` provider, self-healing
// clicks, retry, loop detection — the whole client path of
// docs/contracts/tools.md §17, offline. A measurement to report, not a CI test.
//
//   node tests/bench/hands-miniwob.mjs --html=DIR [--split=train|validation|project|all | --tasks=a,b] [--episodes=3] [--verbose]
//        [--max-steps=15] [--out=.bench/hands-miniwob.json]
//   (DIR: the `html` folder of the `miniwob` PyPI package, as
//    bench/miniwob-html.sh installs it into .bench/venv; pkg-scripts/bench.sh hands-miniwob passes it.)
//
// Per episode: the task page is opened in the tool server's session, the
// START cover is clicked (POST /click, as a user would; MiniWoB then draws a
// random instance: no seeding without page scripts), the utterance is read
// as the first line of the page's text (GET /browser/snapshot?facts=true,
// `visibleText`: MiniWoB's #query, as the run loop's bench reads it), and
// `sentience act --tools URL --task <utterance> --json` runs while the tree
// is polled for MiniWoB's reward display ("Episodes done" moving on): then
// act is stopped and "Last reward" read. success = reward > 0.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { ROOT, startServer } from '../lib/harness.mjs';
import { SENTIENCE } from '../lib/agent.mjs';
import { taskList, splitOf, splitSummary, splitLines } from '../lib/miniwob.mjs';

const args = process.argv.slice(2);
const opt = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
const HTML = path.resolve(opt('html') || process.env.MINIWOB_HTML || '');
// The tasks: --tasks=a,b or --split=train|validation|project|all (default
// all 64), the same lists and split as the snapshot bench (tests/lib/miniwob.mjs);
// any other MiniWoB++ task is refused.
const LIST = taskList(opt);
const EPISODES = Number(opt('episodes') || 3);
// The run loop's MiniWoB++ bench allows 15 actions (tests/lib/miniwob.mjs):
// the same budget, so that a surface is compared with the run loop on the
// page, not on the cap (a date eleven months back takes eleven Page Ups).
const MAX_STEPS = Number(opt('max-steps') || 15);
const VERBOSE = args.includes('--verbose');
const OUT = path.resolve(ROOT, opt('out') || '.bench/hands-miniwob.json');
if (!fs.existsSync(path.join(HTML, 'core/core.js'))) {
  console.error('--html=DIR: the miniwob package html folder (see bench/miniwob-html.sh)');
  process.exit(2);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function startTools() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hands-miniwob-'));
  const proc = spawn(SENTIENCE, ['tools', '--port', '0', '--profile-dir', profile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+/);
      if (m) resolve({ url: m[0], proc });
    });
  });
}

const tools = await startTools();
const call = async (method, p, body) => (await fetch(tools.url + p, {
  method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
})).json();
const tree = async () => (await call('GET', '/browser/dom/tree')).tree ?? '';
const field = (t, label) => {
  const lines = t.split('\n');
  const i = lines.findIndex((l) => l.includes(`"${label}"`));
  for (const l of lines.slice(i + 1, i + 4)) {
    const m = l.match(/"([^"]*)"/);
    if (m) return m[1];
  }
  return null;
};

/** MiniWoB's #query: the run of top-level text lines after the root. */
function queryText(t) {
  const words = [];
  for (const l of t.split('\n').slice(1)) {
    const m = l.match(/^ {2}\[StaticText\] "(.*)"$/);
    if (!m) break;
    words.push(m[1].replace(/\\"/g, '"'));
  }
  // Pieces split at inline markup: `Enter "` + `Karrie` + `"and the…`
  // (the tree trims each piece) → no spaces inside the quotes, one outside.
  const joined = words.join(' ').replace(/\s+/g, ' ');
  let out = '';
  let open = false;
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i];
    if (c !== '"') {
      out += c;
      continue;
    }
    if (!open) {
      if (out && !out.endsWith(' ')) out += ' ';
      out += '"';
      while (joined[i + 1] === ' ') i++;
    } else {
      out = out.replace(/ +$/, '');
      out += '"';
      if (joined[i + 1] && /[A-Za-z0-9]/.test(joined[i + 1])) out += ' ';
    }
    open = !open;
  }
  return out.trim();
}

const server = await startServer(HTML);
const base = server.url;
await call('POST', '/browser/start', { start_url: 'about:blank', headless: true });

const episodes = [];
for (const task of LIST) {
  for (let e = 0; e < EPISODES; e++) {
    await call('POST', '/browser/navigate', { url: `${base}/miniwob/${task}.html` });
    await sleep(300);
    const done0 = field(await tree(), 'Episodes done:');
    await call('POST', '/click', { scope: 'browser', x: 80, y: 105, coordinate_origin: 'viewport' }); // START
    await sleep(200);
    // The utterance: MiniWoB's #query, the first line of the page's text
    // (GET /browser/snapshot?facts=true: innerText's lines, as the run loop
    // reads the page). Only when the server gives no text, the first text
    // lines of the accessibility tree, which run on into the task area
    // (a slider's readout "-68" was read as part of the task).
    const info = await call('GET', '/browser/snapshot?facts=true&limit=1');
    const firstLine = String(info?.snapshot?.visibleText ?? '').split('\n')[0].trim();
    const utterance = firstLine || queryText(await tree());
    const env = { ...process.env };
    delete env.LLM_API_KEY;
    const act = spawn(SENTIENCE, ['act', '--tools', tools.url, '--json', '--max-steps', String(MAX_STEPS), '--task', utterance], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    act.stdout.on('data', (d) => (out += d));
    act.stderr.on('data', (d) => (err += d));
    let exited = false;
    act.on('exit', () => (exited = true));
    let reward = null;
    const t0 = Date.now();
    while (Date.now() - t0 < 30000) {
      const now = await tree();
      const done = field(now, 'Episodes done:');
      if (done !== null && done !== done0) {
        reward = Number(field(now, 'Last reward:'));
        break;
      }
      if (exited) {
        await sleep(300);
        const after = await tree();
        if (field(after, 'Episodes done:') !== done0) reward = Number(field(after, 'Last reward:'));
        break;
      }
      await sleep(150);
    }
    if (!exited) act.kill('SIGTERM');
    await new Promise((r) => (exited ? r() : act.on('exit', r)));
    const steps = (err.match(/^\s+\[\s*\d+\]/gm) || []).length;
    const healed = (err.match(/ healed \(/g) || []).length;
    const loops = (err.match(/loop detected/g) || []).length;
    let summary = null;
    try { summary = JSON.parse(out.trim().split('\n').at(-1)); } catch { /* stopped mid-run */ }
    const ep = { task, utterance, reward, success: reward !== null && reward > 0, steps, healed, loops, logicMs: summary?.logicMsPerStep?.each ?? null };
    episodes.push(ep);
    process.stderr.write(`${ep.success ? '✓' : '✗'} ${task}: ${utterance.slice(0, 60)} → reward ${reward} (${steps} steps, ${healed} healed)\n`);
    // --verbose: what `sentience act` said it did, step by step.
    if (VERBOSE) process.stderr.write(err.replace(/^/gm, '     ') + '\n');
  }
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const byTask = LIST.map((task) => {
  const es = episodes.filter((x) => x.task === task);
  return { task, split: splitOf(task), successRate: mean(es.map((x) => (x.success ? 1 : 0))), meanSteps: mean(es.map((x) => x.steps)), healed: es.reduce((a, x) => a + x.healed, 0) };
});
const report = {
  episodesPerTask: EPISODES,
  successRate: mean(episodes.map((x) => (x.success ? 1 : 0))),
  meanSteps: mean(episodes.map((x) => x.steps)),
  healedClicksPerEpisode: mean(episodes.map((x) => x.healed)),
  loopsPerEpisode: mean(episodes.map((x) => x.loops)),
  bySplit: splitSummary(episodes),
  byTask,
  episodes,
};
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify(report, null, 2));
console.log(JSON.stringify({ ...report, episodes: undefined }, null, 2));
for (const t of byTask) console.log(`${`${t.task}${t.split === 'validation' ? ' (v)' : ''}`.padEnd(32)} ${(t.successRate * 100).toFixed(0).padStart(4)}%  steps ${t.meanSteps.toFixed(1)}`);
for (const l of splitLines(report.bySplit)) console.log(l);
tools.proc.kill('SIGTERM');
await server.close();
