// Ad-hoc: CPU profile of SentienceWalker.collect() on a generated page.
import { startServer, launch, open } from '../lib/harness.mjs';
import { generatedRoute } from '../lib/generate.mjs';
const n = Number(process.argv[2] || 10000);
const server = await startServer(undefined, { '/gen': generatedRoute() });
const browser = await launch();
try {
  const page = await open(browser.context, `${server.url}/gen?n=${n}&seed=1`);
  const cdp = await page.context().newCDPSession(page);
  const contexts = [];
  cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  await new Promise((r) => setTimeout(r, 500));
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const iso = contexts.find((c) => c.name === 'Sentience' && c.auxData.frameId === frameTree.frame.id);
  const run = `(() => { const t0 = performance.now(); SentienceWalker.collect(); return performance.now() - t0; })()`;
  for (let i = 0; i < 3; i++) await cdp.send('Runtime.evaluate', { expression: run, contextId: iso.id, returnByValue: true });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  const times = [];
  for (let i = 0; i < 10; i++) times.push((await cdp.send('Runtime.evaluate', { expression: run, contextId: iso.id, returnByValue: true })).result.value);
  const { profile } = await cdp.send('Profiler.stop');
  console.log('collect ms', times.map((t) => t.toFixed(1)).join(' '));
  const self = new Map();
  const dt = new Map();
  for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) || 0) + (profile.timeDeltas[i] || 0));
  const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
  let total = 0;
  for (const [id, t] of dt) {
    const nd = byId.get(id);
    const f = nd.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + t);
    total += t;
  }
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, 30);
  for (const [k, t] of rows) console.log((t / 1000 / 10).toFixed(2).padStart(8), 'ms/run', k);
  // positionTicks: per-line self time inside collect
  const lines = new Map();
  for (const nd of profile.nodes) {
    if (!nd.positionTicks || !nd.callFrame.url.includes(process.env.PROF_FILE || 'walker')) continue;
    for (const p of nd.positionTicks) lines.set(p.line, (lines.get(p.line) || 0) + p.ticks);
  }
  console.log('--- walker lines (ticks)');
  for (const [l, t] of [...lines].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(t).padStart(6), 'line', l);
} finally {
  await browser.close();
  server.close();
}
