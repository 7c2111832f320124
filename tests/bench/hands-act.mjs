// `sentience act` on the bundled demo site (docs/benchmarks.md,
// "`sentience act` through the tool server"): success rate, steps and healed
// clicks per episode, and the time our client logic adds per step (wall time
// minus HTTP waits, deliberate sleeps and the planner, as `act --json` reports
// it), with the `dom` provider, offline. A measurement to report, not a CI
// test.
//
//   node tests/bench/hands-act.mjs [--runs=5] [--out=.bench/hands-act.json]
//
// Each episode is a fresh `sentience act` (its own tool server, browser and
// demo site); needs `pkg-scripts/build.sh` first.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../lib/harness.mjs';
import { SENTIENCE } from '../lib/agent.mjs';

const arg = (name, def) => (process.argv.find((a) => a.startsWith(`--${name}=`)) ?? `=${def}`).split('=')[1];
const RUNS = Number(arg('runs', 5));
const OUT = path.resolve(ROOT, arg('out', '.bench/hands-act.json'));

export const TASKS = [
  'Log in as "alice" with password "s3cret"',
  'Search for "lamp"',
  'Go to checkout and pay with card "4242 4242 4242 4242"',
  'Send a message on the contact page with name "Bob", email "bob@example.com" and message "Hello"',
];

const env = { ...process.env };
for (const k of ['LLM_API_KEY', 'LUX_API_URL', 'GEMINI_API_KEY', 'GEMINI_API_URL', 'VISION_API_URL']) delete env[k];

const episodes = [];
for (const task of TASKS) {
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(SENTIENCE, ['act', '--json', '--max-steps', '15', '--task', task], { cwd: ROOT, env, encoding: 'utf8', timeout: 180000 });
    const last = (r.stdout || '').trim().split('\n').at(-1);
    let s;
    try { s = JSON.parse(last); } catch { s = { success: false, steps: null, error: (r.stderr || '').slice(-300) }; }
    episodes.push({ task, ...s });
    process.stderr.write(`${s.success ? '✓' : '✗'} ${task} (${s.steps} steps, ${s.healedClicks ?? 0} healed, logic ${s.logicMsPerStep?.mean?.toFixed(3)} ms/step)\n`);
  }
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const perStep = episodes.flatMap((e) => e.logicMsPerStep?.each ?? []).sort((a, b) => a - b);
const q = (p) => perStep[Math.min(perStep.length - 1, Math.floor(p * perStep.length))];
const byTask = TASKS.map((task) => {
  const es = episodes.filter((e) => e.task === task);
  return {
    task,
    successRate: es.filter((e) => e.success).length / es.length,
    meanSteps: mean(es.filter((e) => e.success).map((e) => e.steps)),
    meanHealed: mean(es.map((e) => e.healedClicks ?? 0)),
  };
});
const report = {
  runsPerTask: RUNS,
  successRate: episodes.filter((e) => e.success).length / episodes.length,
  meanSteps: mean(episodes.filter((e) => e.success).map((e) => e.steps)),
  healedClicksPerEpisode: mean(episodes.map((e) => e.healedClicks ?? 0)),
  logicMsPerStep: { p50: q(0.5), p95: q(0.95), max: perStep.at(-1), n: perStep.length },
  byTask,
  episodes,
};
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, JSON.stringify(report, null, 2));
console.log(JSON.stringify({ ...report, episodes: undefined }, null, 2));
