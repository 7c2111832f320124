// The realistic page set (docs/agent.md "The realistic page set";
// tests/pages/realistic): small pages modelled on real sites, one task per
// start page written three ways (terse, polite, values unquoted), split into
// training and validation before any tuning. Each page posts what the user
// achieved to the server that serves it (_record.js → /__realistic/record),
// so the same pages measure every surface of the built-in agent:
//   run     the extension's run loop against `sentience serve` (the popup, `sentience run`)
//   act     `sentience act` through one `sentience tools` (the dom provider, no model)
//   browse  `sentience browse` (HTML only, the browse protocol's built-in policy)
// A measurement to report, not a CI test.
//
//   node tests/bench/realistic.mjs [--surface=run|act|browse] [--split=train|validation|all]
//        [--tasks=id,id] [--styles=terse,polite,unquoted] [--max-steps=25] [--max-seconds=45]
//        [--paraphrases] [--out=.bench/realistic-SURFACE.json] [--verbose]
//
// --paraphrases runs, instead of the three standard phrasings, each training
// page's `paraphrases` (three more ways people write the task: chatty or
// indirect, fragments, non-native English) as styles para1..para3; pages
// without paraphrases are skipped. The reported figure of the set stays on
// the three standard phrasings; this one is measured apart.
//
// success: the page's last recorded outcome has every key of the task's
// `expect` with that value (other keys are ignored).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { SENTIENCE, startAgentServer, tabIdOf, configure, startRun, runs } from '../lib/agent.mjs';

const DIR = path.join(ROOT, 'tests/pages/realistic');
const args = process.argv.slice(2);
const opt = (name) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SURFACE = opt('surface') || 'run';
const SPLIT = opt('split') || 'all';
const PARAPHRASES = args.includes('--paraphrases');
const STYLES = PARAPHRASES ? ['para1', 'para2', 'para3'] : (opt('styles') || 'terse,polite,unquoted').split(',');
const MAX_STEPS = Number(opt('max-steps') || 25);
const MAX_MS = Number(opt('max-seconds') || 45) * 1000;
const OUT = path.resolve(ROOT, opt('out') || `.bench/realistic-${SURFACE}${PARAPHRASES ? '-paraphrases' : ''}.json`);
const VERBOSE = args.includes('--verbose');
if (!['run', 'act', 'browse'].includes(SURFACE)) {
  console.error(`--surface=${SURFACE}: expected run, act or browse`);
  process.exit(2);
}
if (!['train', 'validation', 'all'].includes(SPLIT)) {
  console.error(`--split=${SPLIT}: expected train, validation or all`);
  process.exit(2);
}
const ALL = JSON.parse(fs.readFileSync(path.join(DIR, 'tasks.json'), 'utf8')).tasks;
const wanted = opt('tasks') ? opt('tasks').split(',') : null;
for (const id of wanted || []) {
  if (!ALL.some((t) => t.id === id)) {
    console.error(`unknown task ${id} (tests/pages/realistic/tasks.json)`);
    process.exit(2);
  }
}
const TASKS = ALL.filter((t) => (wanted ? wanted.includes(t.id) : SPLIT === 'all' || t.split === SPLIT)).filter((t) => !PARAPHRASES || t.paraphrases);
/** The task in one style: a standard phrasing, or paraN = the Nth paraphrase. */
const phrasing = (t, style) => (style.startsWith('para') ? t.paraphrases[Number(style.slice(4)) - 1] : t.phrasings[style]);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** Every key of `expect` has its value in `got` (a task that expects nothing recorded, a reading task, passes this part). */
const fits = (got, expect) => (Object.keys(expect).length === 0 ? true : !!got && Object.entries(expect).every(([k, v]) => same(got[k], v)));
/** A reading task (`answer` in tasks.json): the agent's final words contain the answer. */
const answers = (rec, answer) => answer === undefined || `${rec.end || ''}\n${rec.out || ''}`.includes(answer);

// ------------------------------------------------------------------ the pages' reports
let outcome = null;
let notes = [];
const routes = {
  '/__realistic/record': (req, res) => readBody(req, res, (b) => (outcome = b)),
  '/__realistic/note': (req, res) => readBody(req, res, (b) => notes.push(b)),
};
function readBody(req, res, take) {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    try {
      take(JSON.parse(body));
    } catch {
      /* not JSON: ignored */
    }
    res.writeHead(204).end();
  });
}

// ------------------------------------------------------------------ surfaces
/** The extension's run loop: one tab per episode, the run driven by the service worker. */
async function runSurface() {
  const agent = await startAgentServer({ args: ['--in-memory'] });
  const browser = await launch();
  const ext = await browser.context.newPage();
  await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
  await configure(ext, agent.url);
  const TERMINAL = new Set(['completed', 'error', 'cancelled', 'waiting_user']);
  return {
    async episode(url, task) {
      const page = await open(browser.context, url);
      const tabId = await tabIdOf(browser.worker, page);
      const runId = await startRun(ext, { task, mode: 'autonomous', tabId });
      const t0 = Date.now();
      let run = null;
      for (;;) {
        await sleep(150);
        run = (await runs(ext)).find((r) => r.runId === runId) || run;
        const acted = run ? run.log.filter((e) => e.kind === 'tool' && e.result).length : 0;
        if (run && TERMINAL.has(run.status)) break;
        if (acted >= MAX_STEPS || Date.now() - t0 > MAX_MS) {
          await ext.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-cancel', runId });
          break;
        }
      }
      await sleep(300); // a last beacon
      const tools = run ? run.log.filter((e) => e.kind === 'tool') : [];
      const rec = {
        ms: Date.now() - t0,
        status: run ? run.status : 'none',
        steps: tools.length,
        actions: tools.map((e) => `${e.tool}${e.target ? ` "${String(e.target).slice(0, 30)}"` : ''}${e.params && e.params.text !== undefined ? `=${JSON.stringify(e.params.text)}` : ''}${e.params && e.params.key ? `:${e.params.key}` : ''}`),
        end: run ? run.result || run.error || run.question || '' : '',
      };
      if (run && typeof run.result === 'string') rec.out = run.result;
      await page.close().catch(() => {});
      await ext.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'runs-clear' }).catch(() => {});
      return rec;
    },
    async close() {
      await browser.close();
      await agent.kill();
    },
  };
}

/** Runs a CLI command to its end (or the time cap); its stderr lines are the steps. */
function cli(argv, env = {}) {
  const clean = { ...process.env, ...env };
  delete clean.LLM_API_KEY;
  const proc = spawn(SENTIENCE, argv, { cwd: ROOT, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (err += d));
  const t0 = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => proc.kill('SIGTERM'), MAX_MS);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err, ms: Date.now() - t0 });
    });
  });
}

/** `sentience act` through one `sentience tools`. */
async function actSurface() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'realistic-tools-'));
  const proc = spawn(SENTIENCE, ['tools', '--port', '0', '--profile-dir', profile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+/);
      if (m) resolve(m[0]);
    });
  });
  await fetch(`${url}/browser/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start_url: 'about:blank', headless: true }) });
  return {
    async episode(start, task) {
      const r = await cli(['act', '--tools', url, '--start-url', start, '--max-steps', String(MAX_STEPS), '--json', '--task', task]);
      await sleep(300);
      const steps = r.err.split('\n').filter((l) => /^\s+\[\s*\d+\]/.test(l));
      return { ms: r.ms, status: r.code === 0 ? 'completed' : 'failed', steps: steps.length, actions: steps.map((l) => l.trim()), end: r.err.trim().split('\n').at(-1) || '', out: r.out };
    },
    async close() {
      proc.kill('SIGTERM');
    },
  };
}

/** `sentience browse` against one `sentience serve`. */
async function browseSurface() {
  const agent = await startAgentServer({ args: ['--in-memory'] });
  return {
    async episode(start, task) {
      const r = await cli(['browse', '--server', agent.url, '--url', start, '--max-steps', String(MAX_STEPS), '--task', task]);
      await sleep(300);
      const steps = r.err.split('\n').filter((l) => /^\s*\d+[.)]/.test(l) || /→/.test(l));
      return { ms: r.ms, status: r.code === 0 ? 'completed' : 'failed', steps: steps.length, actions: steps.map((l) => l.trim()).slice(0, 30), end: r.err.trim().split('\n').at(-1) || '', out: r.out };
    },
    async close() {
      await agent.kill();
    },
  };
}

// ------------------------------------------------------------------ main
const started = Date.now();
const site = await startServer(DIR, routes);
const surface = SURFACE === 'run' ? await runSurface() : SURFACE === 'act' ? await actSurface() : await browseSurface();
const episodes = [];
try {
  for (const t of TASKS) {
    for (const style of STYLES) {
      const task = phrasing(t, style);
      if (task === undefined) continue;
      outcome = null;
      notes = [];
      const rec = await surface.episode(`${site.url}/${t.start}`, task);
      const ep = { id: t.id, split: t.split, style, task, success: fits(outcome, t.expect) && answers(rec, t.answer), outcome, notes, ...rec };
      episodes.push(ep);
      const line = `${ep.success ? 'OK  ' : 'FAIL'} ${t.id} [${style}] ${ep.status} steps=${ep.steps} ${(ep.ms / 1000).toFixed(1)}s`;
      console.error(VERBOSE ? `${line}\n     "${task}"\n     ${ep.actions.join(' → ')}\n     outcome ${JSON.stringify(outcome)}${ep.end ? `\n     end: ${String(ep.end).slice(0, 300)}` : ''}` : line);
    }
  }
} finally {
  await surface.close();
  await site.close();
}

const rate = (es) => ({ episodes: es.length, successes: es.filter((e) => e.success).length, rate: es.length ? es.filter((e) => e.success).length / es.length : null });
const summary = {
  surface: SURFACE,
  all: rate(episodes),
  train: rate(episodes.filter((e) => e.split === 'train')),
  validation: rate(episodes.filter((e) => e.split === 'validation')),
  byStyle: Object.fromEntries(STYLES.map((s) => [s, rate(episodes.filter((e) => e.style === s))])),
  meanSteps: episodes.length ? episodes.reduce((a, e) => a + e.steps, 0) / episodes.length : null,
  wallSeconds: Math.round((Date.now() - started) / 1000),
};
const perTask = TASKS.map((t) => ({ id: t.id, split: t.split, ...rate(episodes.filter((e) => e.id === t.id)), styles: Object.fromEntries(episodes.filter((e) => e.id === t.id).map((e) => [e.style, e.success])) }));
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, `${JSON.stringify({ generatedAt: new Date().toISOString(), config: { surface: SURFACE, split: SPLIT, styles: STYLES, maxSteps: MAX_STEPS, maxSeconds: MAX_MS / 1000 }, summary, perTask, episodes }, null, 2)}\n`);

const pct = (r) => (r.episodes ? `${((r.rate ?? 0) * 100).toFixed(1)}% (${r.successes}/${r.episodes})` : '-');
console.log(`\nRealistic pages${PARAPHRASES ? ' (paraphrases)' : ''} × built-in agent through ${SURFACE}, cap ${MAX_STEPS} steps / ${MAX_MS / 1000} s`);
console.log(`${'task ((v): validation)'.padEnd(28)}${STYLES.map((s) => s.padStart(10)).join('')}`);
for (const t of perTask) console.log(`${`${t.id}${t.split === 'validation' ? ' (v)' : ''}`.padEnd(28)}${STYLES.map((s) => (t.styles[s] === undefined ? '-' : t.styles[s] ? 'ok' : 'FAIL').padStart(10)).join('')}`);
console.log(`\nall ${pct(summary.all)}; train ${pct(summary.train)}; validation ${pct(summary.validation)}`);
console.log(`by phrasing: ${STYLES.map((s) => `${s} ${pct(summary.byStyle[s])}`).join(', ')}; mean steps ${summary.meanSteps?.toFixed(1)}`);
console.log(`wall time ${summary.wallSeconds} s; results in ${path.relative(ROOT, OUT)}`);
