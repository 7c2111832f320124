// Development aid (not a benchmark): the page a run would send to /step,
// dumped as JSON, for replaying the planner offline (cargo run -p
// sentience-agent --example plan -- FILE "TASK"). Opens a page (a file of
// tests/pages, or a MiniWoB++ task of the 64 at a seed), optionally clicks
// elements by their text first, and prints the snapshot with its DOM facts.
//
//   node tests/bench/planner-replay.mjs --page=tests/pages/realistic/x.html [--click=Text,Text] [--css=SEL,SEL] > page.json
//   node tests/bench/planner-replay.mjs --miniwob=TASK --seed=0 [--click=…] > page.json
import path from 'node:path';
import fs from 'node:fs';
import { ROOT, startServer, launch, open } from '../lib/harness.mjs';
import { tabIdOf } from '../lib/agent.mjs';
import { allowedTask, startEpisode } from '../lib/miniwob.mjs';

const args = process.argv.slice(2);
const opt = (n) => args.find((a) => a.startsWith(`--${n}=`))?.slice(n.length + 3);
let dir;
let file;
if (opt('miniwob')) {
  if (!allowedTask(opt('miniwob'))) {
    console.error(`refused: ${opt('miniwob')} is not one of the 64 MiniWoB++ tasks this project may run`);
    process.exit(2);
  }
  dir = (await import('node:child_process')).execSync('bash bench/miniwob-html.sh', { cwd: ROOT }).toString().trim();
  file = `miniwob/${opt('miniwob')}.html`;
} else {
  const p = path.resolve(ROOT, opt('page') || '');
  if (!fs.existsSync(p)) {
    console.error('--page=FILE or --miniwob=TASK');
    process.exit(2);
  }
  dir = path.dirname(p);
  file = path.basename(p);
}
const site = await startServer(dir);
const browser = await launch();
try {
  const page = await open(browser.context, `${site.url}/${file}`);
  if (opt('miniwob')) {
    const ep = await startEpisode(page, { seed: Number(opt('seed') || 0), episodeMs: 60000 });
    console.error(`utterance: ${ep.utterance}`);
  }
  for (const text of (opt('click') || '').split(',').filter(Boolean)) {
    await page.getByText(text, { exact: true }).first().click();
    await page.waitForTimeout(300);
  }
  // --css=SEL,SEL: clicks by CSS selector (a control whose words are not its own text).
  for (const sel of (opt('css') || '').split(',').filter(Boolean)) {
    await page.locator(sel).first().click();
    await page.waitForTimeout(300);
  }
  const tabId = await tabIdOf(browser.worker, page);
  const snap = await browser.worker.evaluate((id) => SentienceTools.observe(id), tabId);
  process.stdout.write(`${JSON.stringify(snap)}\n`);
} finally {
  await browser.close();
  await site.close();
}
