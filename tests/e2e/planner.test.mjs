// The one planner (docs/agent.md) on the situations issue 23 named, each
// carried out twice, end to end: through the extension's run loop against
// the real `sentience serve` (the popup, `sentience run`), and through
// `sentience act` against a real `sentience tools` (the tool server's
// client path, dom provider, no model). Pages of our own in
// tests/pages/tasks; each records what happened (body[data-result], and a
// beacon to the server that serves it, which is how an act run reports it).
//   - sign-in whose button says Continue, with a "Forgot password?" link
//   - a wait ("wait 3 seconds")
//   - a nested menu path (hover menus)
//   - an autocomplete with a constraint, suggestions arriving late
//   - a date input and a time input
//   - recovery from a wrong link
//   - a message found by its author and forwarded (Reply / Forward as the
//     parts of one clickable toolbar: snapshot-core select/parts.rs)
//   - a form of table rows whose boxes only the row's <th> names (the
//     visible text's line breaks: crates/agent/src/page/layout_labels.rs)
//   - late suggestions on a field that says it offers them only by its
//     widget's class (DomFacts suggests)
//   - a box that already holds a value: typing replaces it (the run API's
//     `type`), through `sentience act` too (Ctrl+A before the keys)
//   - drawn sliders (a handle, a readout beside it): set by their arrow
//     keys, one value or a list of them in the page's order
//   - a verb on an item of a table whose rows each open a menu from an
//     icon named only "Actions" (DomFacts row, has_popup)
//   - a value chosen from a select-only combobox (a div that opens a
//     ul/li listbox, not typed into)
//   - a feedback loop: a number found by the page's "Higher" / "Lower"
//     answers to each try (a search over attempts, not one action again)
//   - a command box: a line typed into a shell-like input, run with Enter
//   - a scrollable box whose "I agree" is enabled only once it is read to
//     its end (scrolled within, not the page)
//   - a virtualised list: only the rows in view exist, so the member the
//     task names is found by scrolling the list's box (the run loop scrolls
//     the box around a row: extension/content/actions.js scrollerAround)
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, EXTENSION_ID, startServer, launch, open } from '../lib/harness.mjs';
import { SENTIENCE, startAgentServer, tabIdOf, configure, waitRun, startRun } from '../lib/agent.mjs';

const SCENARIOS = [
  {
    name: 'sign-in whose button says Continue, a "Forgot password?" link beside',
    page: 'signin-continue.html',
    task: 'Sign in with email grace@example.com and password "c0b0l!"',
    check: (r) => assert.deepEqual(JSON.parse(r), { email: 'grace@example.com', password: 'c0b0l!' }),
  },
  {
    name: 'a wait between two clicks',
    page: 'wait-buttons.html',
    task: 'Click button ONE, wait 3 seconds, then click button TWO.',
    check: (r) => {
      const v = JSON.parse(r);
      assert.equal(v.one, true);
      assert.ok(v.gapMs >= 2900, `TWO came ${v.gapMs} ms after ONE`);
    },
  },
  {
    name: 'a nested menu path',
    page: 'menu-path.html',
    task: 'Choose File → Export → PDF',
    check: (r) => assert.equal(r, 'pdf'),
  },
  {
    name: 'an autocomplete with a constraint, suggestions arriving late',
    page: 'autocomplete-late.html',
    task: 'Enter an item that starts with "Nor" and ends with "land" and click Save.',
    check: (r) => assert.equal(r, 'Northern Ireland'),
  },
  {
    name: 'a date input and a time input',
    page: 'date-time.html',
    task: 'Enter 10/11/2016 as the date and 12:13 PM as the time and hit submit.',
    check: (r) => assert.deepEqual(JSON.parse(r), { date: '2016-10-11', time: '12:13' }),
  },
  {
    name: 'recovery from a wrong link',
    page: 'recover-home.html',
    task: 'Contact our sales team with name "Dana" and message "Demo please"',
    check: (r) => assert.deepEqual(JSON.parse(r), { name: 'Dana', message: 'Demo please', detour: true }),
  },
  {
    name: 'a message named by its author, forwarded through a toolbar of two labelled parts',
    page: 'inbox.html',
    task: "Please forward Effie's email to Bari.",
    check: (r) => assert.deepEqual(JSON.parse(r), { act: 'forward', of: 'Effie', to: 'Bari', text: '' }),
  },
  {
    name: 'a form of table rows, each box named by the row it stands in',
    page: 'search-rows.html',
    task: 'Search for drama movies directed by Holloway from year 2011.',
    check: (r) => assert.deepEqual(JSON.parse(r), { genre: 'drama', director: 'Holloway', year: '2011' }),
  },
  {
    name: 'late suggestions on a field only its widget class marks as an autocomplete',
    page: 'airport-late.html',
    task: 'Type "Portland, OR" into the From field and click Search',
    check: (r) => assert.equal(r, 'Portland, OR (PDX)'),
  },
  {
    name: 'a drawn slider set by its keys from the value its readout shows',
    page: 'sliders.html',
    task: 'Select 42 with the slider and click Apply.',
    check: (r) => assert.deepEqual(JSON.parse(r), { brightness: 42, contrast: 80 }),
  },
  {
    name: 'a box that already holds a value: the typed value replaces it',
    page: 'prefilled.html',
    task: 'Change the street to "12 Birch Lane" and save the address',
    check: (r) => assert.deepEqual(JSON.parse(r), { street: '12 Birch Lane', city: 'Leeds' }),
  },
  {
    name: 'a list of values for the sliders, in their order',
    page: 'sliders.html',
    task: 'Set the sliders to [25, 61] and click Apply.',
    check: (r) => assert.deepEqual(JSON.parse(r), { brightness: 25, contrast: 61 }),
  },
  {
    name: "a verb on a row whose only way to it is the row's icon menu",
    page: 'row-menu.html',
    task: 'Deactivate "Noor Haddad"',
    check: (r) => assert.deepEqual(JSON.parse(r), { action: 'Deactivate', who: 'Noor Haddad' }),
  },
  {
    name: 'a value chosen from a select-only combobox (a div opening a ul/li listbox)',
    page: 'listbox.html',
    task: 'Enter "Printer jam" as the subject, set the priority to "Urgent" and click Save',
    check: (r) => assert.deepEqual(JSON.parse(r), { subject: 'Printer jam', priority: 'Urgent' }),
  },
  {
    name: 'a number found by the answers the page gives to each try',
    page: 'pick-a-number.html',
    task: 'Guess my number',
    // Halving 1..50 finds any number in at most 6 tries.
    check: (r) => {
      const v = JSON.parse(r);
      assert.equal(v.found, 37);
      assert.ok(v.tries <= 6, `${v.tries} tries`);
    },
  },
  {
    name: 'a command typed into a shell box and run with Enter',
    page: 'shell.html',
    task: 'Run "disk" in the shell and tell me how much space is free',
    check: (r) => assert.deepEqual(JSON.parse(r), ['disk']),
  },
  {
    name: 'an agreement enabled once its scrolling box is read to the end',
    page: 'terms-box.html',
    task: 'Tick "I agree to the terms of service", then click Create account',
    check: (r) => assert.deepEqual(JSON.parse(r), { agreed: true }),
  },
  {
    name: "a row of a virtualised list, far down, found by scrolling the list's own box",
    page: 'virtual-rows.html',
    task: 'Change the role of Hugo Penn to Editor',
    check: (r) => assert.deepEqual(JSON.parse(r), { member: 'Hugo Penn', role: 'Editor' }),
  },
];

// The pages' reports, by page load order (one scenario runs at a time).
let reported = null;
const routes = {
  '/__result': (req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      reported = body;
      res.writeHead(204).end();
    });
  },
};
let site;
before(async () => {
  site = await startServer(path.join(ROOT, 'tests/pages/tasks'), routes);
});
after(async () => {
  await site?.close();
});

describe('through the run loop', () => {
  let browser;
  let agent;
  let ext;
  before(async () => {
    browser = await launch();
    agent = await startAgentServer();
    ext = await browser.context.newPage();
    await ext.goto(`chrome-extension://${EXTENSION_ID}/extension/options/options.html`);
    await configure(ext, agent.url);
  });
  after(async () => {
    await browser?.close();
    await agent?.kill();
  });
  const tools = (run) => run.log.filter((e) => e.kind === 'tool').map((e) => `${e.tool}${e.target ? ` "${e.target}"` : ''}`);
  for (const s of SCENARIOS) {
    test(s.name, async () => {
      reported = null;
      const page = await open(browser.context, `${site.url}/${s.page}`);
      await page.evaluate(() => sessionStorage.clear());
      const tabId = await tabIdOf(browser.worker, page);
      const runId = await startRun(ext, { task: s.task, mode: 'autonomous', tabId });
      const run = await waitRun(ext, (r) => ['completed', 'error', 'cancelled', 'waiting_user'].includes(r.status), { runId, timeoutMs: 60000 });
      await new Promise((r) => setTimeout(r, 300));
      const why = `${run.status} ${run.error || run.result || run.question || ''} | ${tools(run).join(' → ')}`;
      await page.close();
      assert.equal(run.status, 'completed', why);
      assert.ok(reported !== null, `the page recorded nothing: ${why}`);
      s.check(reported);
    });
  }
});

describe('through sentience act (the tool server)', () => {
  let tools;
  before(async () => {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'planner-tools-'));
    const proc = spawn(SENTIENCE, ['tools', '--port', '0', '--profile-dir', profile], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await new Promise((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/[\d.]+:\d+/);
        if (m) resolve(m[0]);
      });
      proc.on('exit', (c) => reject(new Error(`sentience tools exited (${c})`)));
    });
    tools = { url, proc, profile };
    const r = await fetch(`${url}/browser/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ start_url: 'about:blank', headless: true }) });
    assert.equal(r.status, 200);
  });
  after(async () => {
    if (!tools) return;
    // The tool server closes its Chromium as it exits; the profile is
    // removed after that (Chromium writes into it until it is gone).
    const exited = tools.proc.exitCode !== null ? Promise.resolve() : new Promise((r) => tools.proc.once('exit', r));
    tools.proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10000))]);
    fs.rmSync(tools.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });
  /** Runs `sentience act` to its end; resolves with its exit code and output. */
  function act(task, startUrl) {
    const env = { ...process.env };
    delete env.LLM_API_KEY;
    const proc = spawn(SENTIENCE, ['act', '--tools', tools.url, '--start-url', startUrl, '--max-steps', '25', '--task', task], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    return new Promise((resolve) => {
      const timer = setTimeout(() => proc.kill('SIGTERM'), 60000);
      proc.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
  }
  for (const s of SCENARIOS) {
    test(s.name, async () => {
      reported = null;
      // A fresh page with no detour remembered from the run loop's turn.
      await fetch(`${tools.url}/browser/navigate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/recover-contact.html?reset` }) });
      const { code, out } = await act(s.task, `${site.url}/${s.page}`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(code, 0, out);
      assert.ok(reported !== null, `the page recorded nothing:\n${out}`);
      s.check(reported);
    });
  }
});
