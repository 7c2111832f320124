// Ad-hoc: CPU profile of the walker on a generated page: self time per
// function, then per line of one file.
//
//   node bench/walker-profile.mjs [elements=10000] [--snapshot]
//     --snapshot        profile whole window.sentience.snapshot() calls
//                       (page world → bridge → walker → wasm → JSON.parse)
//                       instead of SentienceWalker.collect() alone
//   PROF_FILE=bridge    list the lines of that file (default: walker)
import { generatedWorld } from './generated-world.mjs';

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) || 10000);
const wholeSnapshot = args.includes('--snapshot');
const RUNS = 10;
const { world, close } = await generatedWorld(n);
try {
  const { cdp } = world;
  const run = wholeSnapshot
    ? () => cdp.send('Runtime.evaluate', { expression: '(async () => { const t0 = performance.now(); await window.sentience.snapshot(); return performance.now() - t0; })()', returnByValue: true, awaitPromise: true }).then((r) => r.result.value)
    : () => world.evaluate('(() => { const t0 = performance.now(); SentienceWalker.collect(); return performance.now() - t0; })()');
  for (let i = 0; i < 3; i++) await run();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(await run());
  const { profile } = await cdp.send('Profiler.stop');
  console.log(`${wholeSnapshot ? 'snapshot()' : 'collect()'} ms:`, times.map((t) => t.toFixed(1)).join(' '));

  const ticksOf = new Map();
  for (let i = 0; i < profile.samples.length; i++) ticksOf.set(profile.samples[i], (ticksOf.get(profile.samples[i]) || 0) + (profile.timeDeltas[i] || 0));
  const self = new Map();
  for (const node of profile.nodes) {
    const us = ticksOf.get(node.id);
    if (!us) continue;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + us);
  }
  console.log('--- self time per function (ms per run)');
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((us / 1000 / RUNS).toFixed(2).padStart(8), k);

  const file = process.env.PROF_FILE || 'walker';
  const lines = new Map();
  for (const node of profile.nodes) {
    if (!node.positionTicks || !node.callFrame.url.includes(file)) continue;
    for (const p of node.positionTicks) lines.set(p.line, (lines.get(p.line) || 0) + p.ticks);
  }
  console.log(`--- ${file}: samples per line`);
  for (const [l, t] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(t).padStart(6), 'line', l);
} finally {
  await close();
}
