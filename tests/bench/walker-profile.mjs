// Ad-hoc: CPU profile of the walker on a generated page, or summed over
// the real saved pages: self time per function, then per line of one file.
//
//   node bench/walker-profile.mjs [elements=10000] [--snapshot]
//   node bench/walker-profile.mjs --real[=cnn-home,wired-home] [--snapshot]
//     --snapshot        profile whole window.sentience.snapshot() calls
//                       (page world → bridge → walker → wasm → JSON.parse)
//                       instead of SentienceWalker.collect() alone
//     --real            the 27 real pages of bench.sh real-pages (or those
//                       named), third-party hosts cut; times are per page
//   PROF_FILE=bridge    list the lines of that file (default: walker)
import { generatedWorld } from './generated-world.mjs';
import { startServer, launch, open, isolatedWorld } from '../lib/harness.mjs';
import { PAGES, MORE_PAGES, THIRD_PARTY_CUT, fetchPages, pageRoutes } from '../lib/real-pages.mjs';

const args = process.argv.slice(2);
const n = Number(args.find((a) => /^\d+$/.test(a)) || 10000);
const wholeSnapshot = args.includes('--snapshot');
const realArg = args.find((a) => a === '--real' || a.startsWith('--real='));
const RUNS = 10;

// {worlds, close}: one isolated world per page profiled.
async function worlds() {
  if (!realArg) {
    const { world, close } = await generatedWorld(n);
    return { worlds: [world], close };
  }
  const names = realArg.includes('=') ? realArg.slice('--real='.length).split(',') : null;
  const all = [...PAGES, ...MORE_PAGES];
  const list = names ? all.filter((p) => names.includes(p.name)) : all;
  if (!list.length) throw new Error(`no real page named ${names}; pages: ${all.map((p) => p.name).join(' ')}`);
  const dir = fetchPages(all);
  const server = await startServer(dir, pageRoutes(dir, all));
  const browser = await launch({ args: THIRD_PARTY_CUT });
  const out = [];
  for (const p of list) {
    const world = await isolatedWorld(await open(browser.context, `${server.url}/${p.name}.html`));
    if (!world) throw new Error(`the extension did not load in ${p.name}`);
    out.push(world);
  }
  return { worlds: out, close: async () => (await browser.close(), server.close()) };
}

const { worlds: all, close } = await worlds();
try {
  // Self time per function and samples per line, summed over the pages.
  const self = new Map();
  const lines = new Map();
  const file = process.env.PROF_FILE || 'walker';
  for (const world of all) {
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
    const url = (await cdp.send('Runtime.evaluate', { expression: 'location.pathname', returnByValue: true })).result.value;
    console.log(`${wholeSnapshot ? 'snapshot()' : 'collect()'} ms ${url}:`, times.map((t) => t.toFixed(1)).join(' '));

    const ticksOf = new Map();
    for (let i = 0; i < profile.samples.length; i++) ticksOf.set(profile.samples[i], (ticksOf.get(profile.samples[i]) || 0) + (profile.timeDeltas[i] || 0));
    for (const node of profile.nodes) {
      const us = ticksOf.get(node.id);
      if (us) {
        const f = node.callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
        self.set(key, (self.get(key) || 0) + us);
      }
      if (node.positionTicks && node.callFrame.url.includes(file)) {
        for (const p of node.positionTicks) lines.set(p.line, (lines.get(p.line) || 0) + p.ticks);
      }
    }
  }
  console.log(`--- self time per function (ms per run${all.length > 1 ? `, summed over ${all.length} pages` : ''})`);
  for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((us / 1000 / RUNS).toFixed(2).padStart(8), k);
  console.log(`--- ${file}: samples per line`);
  for (const [l, t] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(t).padStart(6), 'line', l);
} finally {
  await close();
}
