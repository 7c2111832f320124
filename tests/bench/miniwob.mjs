// MiniWoB++ measurement (docs/agent.md "MiniWoB++"): the built-in System 2
// scorer driven through the full loop — the extension's service worker takes
// a snapshot of the tab, POSTs /step to the real `sentience serve`, executes
// the answer in the tab — on MiniWoB++ task pages, with the task text = the
// episode's utterance. The reward is read from the page (core.js globals).
// A measurement to report, not a CI test.
//
//   node tests/bench/miniwob.mjs --html=DIR [--tasks=a,b] [--seeds=N]
//        [--max-steps=15] [--max-seconds=20] [--out=.bench/miniwob.json]
//   (pkg-scripts/bench.sh miniwob installs the `miniwob` PyPI package into
//    .bench/venv and passes its html/ directory.)
//
// Per episode (one fresh tab each, one at a time):
//   1. open DIR/miniwob/TASK.html on http://127.0.0.1 (harness startServer);
//      its onload shows the "START" sync cover (core.startEpisode());
//   2. in the page: wrap genProblem so that, after the task's own generator
//      ran (some set core.EPISODE_MAX_TIME inside it), core.EPISODE_MAX_TIME
//      is raised to EPISODE_MS (60 s by default, three times the time cap), so
//      the MiniWoB timer never expires before the agent stops; wrap
//      core.endEpisode to note when the episode ended; Math.seedrandom(seed)
//      (what miniwob's Python env does); core.startEpisodeReal(); wait for
//      WOB_TASK_READY; utterance = core.getUtterance();
//   3. start a run from an extension page (run-start, autonomous mode);
//   4. poll the page (WOB_DONE_GLOBAL) and the run record in
//      chrome.storage: stop at the episode's end (MiniWoB ends an episode on
//      the first submit, right or wrong), at the run's end (finish / error /
//      ask_user), after MAX_STEPS executed actions, or after MAX_SECONDS;
//      a run still going is cancelled (run-cancel);
//   5. reward = WOB_REWARD_GLOBAL (raw: WOB_RAW_REWARD_GLOBAL); success =
//      reward > 0; steps = actions the run executed up to the episode's end.
//
// Overhead per step: the service worker's SentienceTools.observe and
// SentienceApi.step are wrapped (from the bench, through Playwright's worker
// handle; the extension is not modified) to time, for each step, snapshot
// start → snapshot ready → server answer received. The run log's `at`
// timestamps are kept too (decision-to-decision interval, which also
// includes executing the action).
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { startAgentServer, tabIdOf, configure, startRun, runs } from '../lib/agent.mjs';
import { benchOptions, startEpisode, pageState, splitSummary, splitLines, splitOf } from '../lib/miniwob.mjs';

const args = process.argv.slice(2);
const { HTML, LIST, SEEDS, SEED_BASE, MAX_STEPS, MAX_MS, EPISODE_MS, OUT, VERBOSE } = benchOptions(args, ROOT, '.bench/miniwob.json');
for (const t of LIST) {
  if (!fs.existsSync(path.join(HTML, 'miniwob', `${t}.html`))) {
    console.error(`unknown task ${t} (no ${path.join(HTML, 'miniwob', `${t}.html`)})`);
    process.exit(2);
  }
}

// ------------------------------------------------------------------ stats
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function quantile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const median = (xs) => quantile([...xs].sort((a, b) => a - b), 0.5);
const p95 = (xs) => quantile([...xs].sort((a, b) => a - b), 0.95);
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const r1 = (x) => (x === null || x === undefined ? null : Math.round(x * 10) / 10);

// ------------------------------------------------------------------ worker instrumentation
// Installed into the service worker's global scope; idempotent. Records, per
// /step call, when the snapshot started, when it was ready, and when the
// server's answer arrived (performance.now() in the worker).
function instrument() {
  if (globalThis.__miniwobBench) return false;
  // One run at a time (the bench never overlaps episodes), so the snapshot
  // being timed is always the one the next /step carries.
  const bench = { timings: [], pending: null };
  globalThis.__miniwobBench = bench;
  const observe = SentienceTools.observe;
  SentienceTools.observe = async function () {
    const p = { t0: performance.now(), t1: null, elements: null, bytes: null };
    bench.pending = p;
    const snap = await observe.apply(this, arguments);
    p.t1 = performance.now();
    p.elements = snap.elements.length;
    p.bytes = JSON.stringify(snap).length;
    return snap;
  };
  const step = SentienceApi.step;
  SentienceApi.step = async function (s, runId, body) {
    const t2 = performance.now();
    const res = await step.apply(this, arguments);
    const t3 = performance.now();
    const p = bench.pending;
    bench.pending = null;
    const timed = p && p.t1 !== null && body && body.snapshot;
    bench.timings.push({
      runId,
      snapshotMs: timed ? p.t1 - p.t0 : null,
      stepMs: t3 - t2,
      overheadMs: timed ? t3 - p.t0 : null,
      elements: timed ? p.elements : null,
      bytes: timed ? p.bytes : null,
      action: res && res.action,
      tool: res && res.tool && res.tool.name,
    });
    return res;
  };
  return true;
}

async function currentWorker(context) {
  let w = context.serviceWorkers().find((x) => x.url().startsWith(`chrome-extension://${EXTENSION_ID}/`));
  if (!w) w = await context.waitForEvent('serviceworker', { timeout: 20000 });
  await w.evaluate(instrument);
  return w;
}

const takeTimings = (worker, runId) =>
  worker.evaluate((id) => {
    const b = globalThis.__miniwobBench;
    if (!b) return [];
    const mine = b.timings.filter((t) => t.runId === id);
    b.timings = b.timings.filter((t) => t.runId !== id);
    return mine;
  }, runId);

// ------------------------------------------------------------------ one episode
const TERMINAL = new Set(['completed', 'error', 'cancelled']);
const send = (ext, msg) => ext.evaluate((m) => chrome.runtime.sendMessage(m), msg);

async function episode({ browser, ext, site, task, seed }) {
  const page = await open(browser.context, `${site.url}/miniwob/${task}.html`);
  const rec = { task, seed };
  try {
    Object.assign(rec, await startEpisode(page, { seed, episodeMs: EPISODE_MS }));

    const worker = await currentWorker(browser.context);
    const tabId = await tabIdOf(worker, page);
    const t0 = Date.now();
    const runId = await startRun(ext, { task: rec.utterance, mode: 'autonomous', tabId });
    rec.runId = runId;

    let run = null;
    let st = null;
    let endedBy = null;
    let terminalSeenAt = null;
    for (;;) {
      await sleep(100);
      st = await pageState(page);
      run = (await runs(ext)).find((r) => r.runId === runId) || run;
      const executed = run ? run.log.filter((e) => e.kind === 'tool' && e.result).length : 0;
      if (st.done === true) endedBy = 'episode';
      else if (st.done === null) endedBy = 'page-gone';
      else if (run && (TERMINAL.has(run.status) || run.status === 'waiting_user')) {
        // Give a last action's reward a moment to land.
        terminalSeenAt ??= Date.now();
        if (Date.now() - terminalSeenAt > 300) endedBy = run.status === 'waiting_user' ? 'ask_user' : `run-${run.status}`;
      } else if (executed >= MAX_STEPS) endedBy = 'step-cap';
      else if (Date.now() - t0 > MAX_MS) endedBy = 'time-cap';
      if (endedBy) break;
    }
    rec.durationMs = Date.now() - t0;
    rec.endedBy = endedBy;
    if (run && !TERMINAL.has(run.status)) await send(ext, { type: 'run-cancel', runId });
    await sleep(50);
    run = (await runs(ext)).find((r) => r.runId === runId) || run;

    rec.reward = st.reward ?? 0;
    rec.rawReward = st.raw ?? 0;
    rec.reason = st.reason ?? null;
    rec.done = st.done === true;
    rec.success = rec.done && rec.reward > 0;
    rec.perfect = rec.done && rec.rawReward >= 1; // partial-credit tasks (click-checkboxes*) give 0 < r < 1 for partly right answers
    const doneAt = st.doneAt || Infinity;
    const tools = run ? run.log.filter((e) => e.kind === 'tool') : [];
    // A decision logged before the episode ended was executed (or was being
    // executed: the action that ended it, whose result may not be saved yet).
    const inEpisode = tools.filter((e) => (Number.isFinite(doneAt) ? e.at <= doneAt : !!e.result));
    rec.steps = inEpisode.length;
    rec.serverSteps = run ? run.currentStep : null;
    rec.runStatus = run ? run.status : null;
    rec.runResult = run ? run.result : null;
    rec.runError = run ? run.error : null;
    rec.question = run && run.status === 'waiting_user' ? run.question : run && run.log.find((e) => e.kind === 'ask')?.text;
    rec.actions = tools.map((e) => ({
      tool: e.tool,
      target: e.target ?? null,
      params: Object.fromEntries(Object.entries(e.params || {}).filter(([k]) => k !== 'id')),
      ok: e.result ? e.result.success : null,
      outcome: e.result ? (e.result.data && e.result.data.outcome) || e.result.error || null : null,
      afterEpisodeEnd: e.at > doneAt,
    }));
    rec.logIntervalsMs = tools.slice(1).map((e, i) => e.at - tools[i].at);
    rec.timings = (await takeTimings(await currentWorker(browser.context), runId)).map((t) => ({
      snapshotMs: r1(t.snapshotMs),
      stepMs: r1(t.stepMs),
      overheadMs: r1(t.overheadMs),
      elements: t.elements ?? null,
      bytes: t.bytes ?? null,
    }));
  } catch (e) {
    rec.error = e.message;
    rec.success = false;
    rec.reward = rec.reward ?? 0;
    rec.steps = rec.steps ?? 0;
    rec.timings = rec.timings ?? [];
  } finally {
    await page.close().catch(() => {});
    await send(ext, { type: 'runs-clear' }).catch(() => {});
  }
  return rec;
}

// ------------------------------------------------------------------ main
async function main() {
  const started = Date.now();
  const site = await startServer(HTML);
  const agent = await startAgentServer({ args: ['--in-memory'] });
  const browser = await launch();
  const ext = await browser.context.newPage();
  await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
  await configure(ext, agent.url);
  const health = await fetch(`${agent.url}/health`).then((r) => r.json());
  await currentWorker(browser.context);

  const episodes = [];
  try {
    for (const task of LIST) {
      for (let i = 0; i < SEEDS; i++) {
        const seed = SEED_BASE + i;
        const rec = await episode({ browser, ext, site, task, seed });
        episodes.push(rec);
        const acts = (rec.actions || []).filter((a) => !a.afterEpisodeEnd).map((a) => `${a.tool}${a.target ? `"${String(a.target).slice(0, 24)}"` : ''}${a.params.text !== undefined ? `=${JSON.stringify(a.params.text)}` : ''}${a.params.key ? `:${a.params.key}` : ''}`);
        const line = `${rec.success ? 'OK  ' : 'FAIL'} ${task}#${seed} r=${(rec.reward ?? 0).toFixed(2)} steps=${rec.steps} ${rec.endedBy || rec.error} ${((rec.durationMs || 0) / 1000).toFixed(1)}s`;
        console.error(VERBOSE ? `${line}\n     "${rec.utterance}"\n     ${acts.join(' → ')}${rec.runResult ? `\n     finish: ${rec.runResult}` : ''}${rec.question ? `\n     ask: ${rec.question}` : ''}${rec.runError ? `\n     error: ${rec.runError}` : ''}` : line);
      }
    }
  } finally {
    await browser.close();
    await agent.kill();
    await site.close();
  }

  // ---------------------------------------------------------------- summary
  const perTask = LIST.map((task) => {
    const eps = episodes.filter((e) => e.task === task);
    const overheads = eps.flatMap((e) => e.timings.map((t) => t.overheadMs).filter((x) => x !== null));
    return {
      task,
      split: splitOf(task),
      episodes: eps.length,
      successes: eps.filter((e) => e.success).length,
      successRate: eps.filter((e) => e.success).length / eps.length,
      perfect: eps.filter((e) => e.perfect).length,
      meanReward: mean(eps.map((e) => e.reward || 0)),
      avgSteps: mean(eps.map((e) => e.steps || 0)),
      overheadMedianMs: median(overheads),
      overheadP95Ms: p95(overheads),
      endedBy: eps.reduce((m, e) => ((m[e.endedBy || 'error'] = (m[e.endedBy || 'error'] || 0) + 1), m), {}),
    };
  });
  const all = episodes.flatMap((e) => e.timings);
  const over = all.map((t) => t.overheadMs).filter((x) => x !== null);
  const snaps = all.map((t) => t.snapshotMs).filter((x) => x !== null);
  const stepsMs = all.map((t) => t.stepMs).filter((x) => x !== null);
  const intervals = episodes.flatMap((e) => e.logIntervalsMs || []);
  const summary = {
    episodes: episodes.length,
    successes: episodes.filter((e) => e.success).length,
    successRate: episodes.filter((e) => e.success).length / episodes.length,
    perfect: episodes.filter((e) => e.perfect).length,
    perfectRate: episodes.filter((e) => e.perfect).length / episodes.length,
    meanReward: mean(episodes.map((e) => e.reward || 0)),
    avgSteps: mean(episodes.map((e) => e.steps || 0)),
    stepsTimed: over.length,
    overheadMs: { median: r1(median(over)), p95: r1(p95(over)), mean: r1(mean(over)) },
    snapshotMs: { median: r1(median(snaps)), p95: r1(p95(snaps)) },
    serverStepMs: { median: r1(median(stepsMs)), p95: r1(p95(stepsMs)) },
    logDecisionIntervalMs: { median: r1(median(intervals)), p95: r1(p95(intervals)) },
    wallSeconds: Math.round((Date.now() - started) / 1000),
    bySplit: splitSummary(episodes),
  };
  const result = {
    generatedAt: new Date().toISOString(),
    config: { html: HTML, tasks: LIST, seeds: Array.from({ length: SEEDS }, (_, i) => SEED_BASE + i), maxSteps: MAX_STEPS, maxSeconds: MAX_MS / 1000, episodeMaxTimeMs: EPISODE_MS, policy: health.policy, chromium: browser.context.browser()?.version?.() ?? null },
    method: {
      seeding: 'Math.seedrandom(String(seed)) right before core.startEpisodeReal(), as miniwob\'s Python env does',
      timer: `genProblem wrapped so that core.EPISODE_MAX_TIME = ${EPISODE_MS} ms after the task's generator ran, before core arms its end-of-episode timer`,
      success: 'WOB_REWARD_GLOBAL > 0 once WOB_DONE_GLOBAL is true; perfect: WOB_RAW_REWARD_GLOBAL = 1 (click-checkboxes* give partial credit, so an all-unchecked Submit can score > 0)',
      steps: 'actions the run executed up to the episode\'s end (run log entries of kind "tool" logged before core.endEpisode ran; without an episode end, those with a result)',
      overhead: 'per /step: service worker snapshot start (SentienceTools.observe) to the server\'s /step answer received, performance.now() in the worker through wrappers installed by the bench',
    },
    summary,
    perTask,
    episodes,
  };
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, `${JSON.stringify(result, null, 2)}\n`);

  // ---------------------------------------------------------------- table
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  const fmt = (x, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
  console.log(`\nMiniWoB++ × sentience built-in scorer (${health.policy}), ${SEEDS} seeds/task, cap ${MAX_STEPS} steps / ${MAX_MS / 1000} s, EPISODE_MAX_TIME ${EPISODE_MS} ms`);
  console.log(`${pad('task ((v): validation)', 32)}${lpad('success', 9)}${lpad('perfect', 9)}${lpad('reward', 8)}${lpad('steps', 7)}${lpad('ovh p50', 9)}${lpad('ovh p95', 9)}  ended by`);
  for (const t of perTask) {
    const ends = Object.entries(t.endedBy).map(([k, v]) => `${k}:${v}`).join(' ');
    console.log(`${pad(`${t.task}${t.split === 'validation' ? ' (v)' : ''}`, 32)}${lpad(`${t.successes}/${t.episodes}`, 9)}${lpad(`${t.perfect}/${t.episodes}`, 9)}${lpad(fmt(t.meanReward, 2), 8)}${lpad(fmt(t.avgSteps), 7)}${lpad(fmt(t.overheadMedianMs), 9)}${lpad(fmt(t.overheadP95Ms), 9)}  ${ends}`);
  }
  console.log(`${pad('ALL', 32)}${lpad(`${summary.successes}/${summary.episodes}`, 9)}${lpad(`${summary.perfect}/${summary.episodes}`, 9)}${lpad(fmt(summary.meanReward, 2), 8)}${lpad(fmt(summary.avgSteps), 7)}${lpad(fmt(summary.overheadMs.median), 9)}${lpad(fmt(summary.overheadMs.p95), 9)}`);
  console.log(`\nsuccess rate (reward > 0) ${(summary.successRate * 100).toFixed(1)}%, perfect (raw reward 1) ${(summary.perfectRate * 100).toFixed(1)}%  avg steps ${fmt(summary.avgSteps, 2)}  overhead/step (snapshot → server answer) median ${fmt(summary.overheadMs.median)} ms, p95 ${fmt(summary.overheadMs.p95)} ms over ${summary.stepsTimed} steps`);
  console.log(`  of which snapshot median ${fmt(summary.snapshotMs.median)} ms (p95 ${fmt(summary.snapshotMs.p95)}), /step round trip median ${fmt(summary.serverStepMs.median)} ms (p95 ${fmt(summary.serverStepMs.p95)}); run-log decision interval median ${fmt(summary.logDecisionIntervalMs.median)} ms`);
  for (const l of splitLines(summary.bySplit)) console.log(l);
  console.log(`wall time ${summary.wallSeconds} s; results in ${path.relative(ROOT, OUT)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
