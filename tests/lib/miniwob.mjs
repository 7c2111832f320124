// MiniWoB++ episodes as both MiniWoB benches run them (tests/bench/miniwob.mjs:
// the snapshot agent through the extension; tests/bench/miniwob-browse.mjs:
// the HTML browse protocol): the task list, the seeded start and the reward.
/* global core, WOB_DONE_GLOBAL, WOB_REWARD_GLOBAL, WOB_RAW_REWARD_GLOBAL, WOB_REWARD_REASON, WOB_TASK_READY -- MiniWoB's page globals, read in page.evaluate() */
import fs from 'node:fs';
import path from 'node:path';

// 34 tasks a DOM agent can plausibly do (no drawing, dragging, canvas
// shapes or colour wheels).
export const TASKS = [
  'click-button',
  'click-button-sequence',
  'click-link',
  'click-option',
  'click-checkboxes',
  'click-checkboxes-soft',
  'click-checkboxes-transfer',
  'click-dialog',
  'click-dialog-2',
  'click-tab',
  'click-tab-2',
  'click-tab-2-easy',
  'click-test',
  'click-test-2',
  'click-collapsible',
  'click-collapsible-2',
  'click-widget',
  'click-scroll-list',
  'click-menu-2',
  'enter-text',
  'enter-text-2',
  'enter-text-dynamic',
  'enter-password',
  'focus-text',
  'focus-text-2',
  'login-user',
  'login-user-popup',
  'choose-list',
  'use-autocomplete',
  'search-engine',
  'navigate-tree',
  'multi-layouts',
  'multi-orderings',
  'unicode-test',
];

/**
 * Starts a seeded episode on an open MiniWoB task page (its onload shows the
 * START cover): genProblem is wrapped so that core.EPISODE_MAX_TIME =
 * episodeMs after the task's own generator ran; core.endEpisode is wrapped
 * to note when the episode ended (window.__benchDoneAt); Math.seedrandom(seed)
 * as miniwob's Python env does. Resolves with {utterance, episodeMaxTime}.
 */
export async function startEpisode(page, { seed, episodeMs }) {
  const rec = {};
  await page.waitForFunction(() => typeof core === 'object' && typeof genProblem === 'function' && document.getElementById('sync-task-cover'), null, { timeout: 10000 });
  await page.evaluate(
    ({ seed, episodeMs }) => {
      const gen = window.genProblem;
      window.genProblem = function () {
        const r = gen.apply(this, arguments);
        core.EPISODE_MAX_TIME = episodeMs; // after the task's own setting, before core arms its timer
        return r;
      };
      const end = core.endEpisode;
      core.endEpisode = function () {
        if (core.EP_TIMER !== null && !window.__benchDoneAt) window.__benchDoneAt = Date.now();
        return end.apply(this, arguments);
      };
      Math.seedrandom(String(seed));
      core.startEpisodeReal();
    },
    { seed, episodeMs },
  );
  await page.waitForFunction(() => WOB_TASK_READY !== false, null, { timeout: 5000 }).catch(() => {});
  rec.utterance = await page.evaluate(() => core.getUtterance());
  rec.episodeMaxTime = await page.evaluate(() => core.EPISODE_MAX_TIME);
  return rec;
}

export async function pageState(page) {
  try {
    return await page.evaluate(() => ({
      done: typeof WOB_DONE_GLOBAL !== 'undefined' ? WOB_DONE_GLOBAL : null,
      reward: typeof WOB_REWARD_GLOBAL !== 'undefined' ? WOB_REWARD_GLOBAL : null,
      raw: typeof WOB_RAW_REWARD_GLOBAL !== 'undefined' ? WOB_RAW_REWARD_GLOBAL : null,
      reason: typeof WOB_REWARD_REASON !== 'undefined' ? WOB_REWARD_REASON : null,
      doneAt: window.__benchDoneAt || null,
      url: location.href,
    }));
  } catch (e) {
    return { done: null, error: e.message };
  }
}

/**
 * The command-line options both MiniWoB benches take (`--html`, `--tasks`,
 * `--seeds`, `--seed-base`, `--max-steps`, `--max-seconds`, `--episode-ms`,
 * `--out`, `--verbose`); exits 2 when the MiniWoB++ html directory is missing.
 */
export function benchOptions(argv, root, defaultOut) {
  const opt = (name) => {
    const hit = argv.find((a) => a.startsWith(`--${name}=`));
    return hit ? hit.slice(name.length + 3) : undefined;
  };
  const html = path.resolve(opt('html') || process.env.MINIWOB_HTML || '');
  const maxMs = Number(opt('max-seconds') || 20) * 1000;
  if (!html || !fs.existsSync(path.join(html, 'core/core.js'))) {
    console.error(`MiniWoB++ html directory not found (${html || 'none given'}): pass --html=DIR (the miniwob package's html/, holding core/ and miniwob/)`);
    process.exit(2);
  }
  return {
    HTML: html,
    LIST: opt('tasks') ? opt('tasks').split(',').map((s) => s.trim()).filter(Boolean) : TASKS,
    SEEDS: Number(opt('seeds') || 5),
    SEED_BASE: Number(opt('seed-base') || 0),
    MAX_STEPS: Number(opt('max-steps') || 15),
    MAX_MS: maxMs,
    EPISODE_MS: Number(opt('episode-ms') || Math.max(60000, 3 * maxMs)),
    OUT: path.resolve(root, opt('out') || defaultOut),
    VERBOSE: argv.includes('--verbose'),
  };
}
