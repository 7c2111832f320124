// @ts-check
// The popup and side panel: start a run on the active tab, watch its steps,
// answer the agent's questions, cancel. All state lives in chrome.storage
// (written by the service worker), so closing the popup loses nothing.
'use strict';

const { MSG, STORAGE, TERMINAL_STATUSES } = SentienceProtocol;
/** @param {string} id */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @type {string | null} */
let shownRunId = null;

// The tab a run acts on: the active tab, or ?tab=ID when this page is opened
// as a tab of its own (tests, the `sentience run` CLI).
async function targetTab() {
  const fixed = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(fixed) && fixed > 0) return chrome.tabs.get(fixed);
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab;
}

/**
 * A UI message to the service worker (protocol.js validateUiMessage); rejects with its error.
 * @param {{type: string, [key: string]: unknown}} msg
 */
function send(msg) {
  return chrome.runtime.sendMessage(msg).then((res) => {
    if (res && res.error) throw new Error(res.error);
    return res;
  });
}

/** How each kind of log line reads (run/run-loop.js writes them). @type {Record<string, (entry: SentienceRunLogEntry) => string>} */
const DESCRIBE = {
  tool: (entry) => {
    const p = entry.params || {};
    const what = entry.target ? ` "${entry.target}"` : p.url ? ` ${p.url}` : p.key ? ` ${p.key}` : '';
    const typed = entry.tool === 'type' && p.text !== undefined ? ` ← "${p.text}"` : '';
    const res = entry.result ? (entry.result.success ? ' ✓' : ` ✗ ${entry.result.error || ''}`) : ' …';
    return `${entry.tool}${what}${typed}${res}`;
  },
  ask: (entry) => `asked: ${entry.text}`,
  answer: (entry) => `you ${entry.text}`,
  finish: (entry) => `finished: ${entry.text}`,
};

/** @param {SentienceRunLogEntry} entry */
function describe(entry) {
  if (Object.prototype.hasOwnProperty.call(DESCRIBE, entry.kind)) return DESCRIBE[entry.kind](entry);
  return `${entry.kind}: ${entry.text || ''}`;
}

async function render() {
  const everything = await chrome.storage.local.get(null);
  const runs = Object.keys(everything)
    .filter((k) => k.startsWith(STORAGE.RUN_PREFIX))
    .map((k) => /** @type {SentienceRun} */ (everything[k]))
    .sort((a, b) => b.createdAt - a.createdAt);
  const tab = await targetTab().catch(() => null);
  const run = runs.find((r) => r.runId === shownRunId) || runs.find((r) => tab && r.tabId === tab.id) || runs[0];
  $('run').hidden = !run;
  if (!run) return;
  shownRunId = run.runId;
  const live = !TERMINAL_STATUSES.includes(run.status);
  $('status').textContent = run.status.replace('_', ' ');
  $('status').className = `status ${run.status}`;
  $('progress').textContent = `step ${run.currentStep} of ${run.maxSteps} — ${run.task}`;
  $('cancel').hidden = !live;
  $('ask').hidden = run.status !== 'waiting_user';
  $('question').textContent = run.question || '';
  $('result').hidden = !run.result;
  $('result').textContent = run.result ? `Result: ${run.result}` : '';
  $('run-error').hidden = !run.error;
  $('run-error').textContent = run.error ? `Error: ${run.error}` : '';
  $('log').replaceChildren(
    ...run.log.map((e) => {
      const li = document.createElement('li');
      li.textContent = describe(e);
      if (e.result && !e.result.success) li.className = 'fail';
      return li;
    }),
  );
  $('reflections').replaceChildren(
    ...(run.reflections || []).slice(-3).map((r) => {
      const p = document.createElement('p');
      p.className = 'reflection';
      p.textContent = `reflection at step ${r.stepNumber}: efficiency ${r.efficiency}${r.issues && r.issues.length ? `; ${r.issues.join('; ')}` : ''}${r.suggestions && r.suggestions.length ? ` → ${r.suggestions.join('; ')}` : ''}`;
      return p;
    }),
  );
}

$('start').addEventListener('submit', async (e) => {
  e.preventDefault();
  $('start-error').hidden = true;
  const tab = await targetTab();
  const mode = /** @type {HTMLInputElement} */ (document.querySelector('input[name=mode]:checked')).value;
  try {
    const { runId } = await send({ type: MSG.RUN_START, task: $('task').value, mode, tabId: tab.id });
    shownRunId = runId;
    render();
  } catch (err) {
    $('start-error').textContent = err instanceof Error ? err.message : String(err);
    $('start-error').hidden = false;
  }
});
$('cancel').addEventListener('click', () => send({ type: MSG.RUN_CANCEL, runId: shownRunId }).catch(() => {}));
$('approve').addEventListener('click', () => send({ type: MSG.RUN_ANSWER, runId: shownRunId, approved: true, answer: $('answer-text').value || undefined }).catch((e) => alert(e.message)));
$('refuse').addEventListener('click', () => send({ type: MSG.RUN_ANSWER, runId: shownRunId, approved: false }).catch((e) => alert(e.message)));
$('clear').addEventListener('click', () => send({ type: MSG.RUNS_CLEAR }).then(render));
$('options').addEventListener('click', (e) => {
  e.preventDefault();
  chrome.runtime.openOptionsPage();
});

chrome.storage.local.get(STORAGE.SETTINGS).then(({ [STORAGE.SETTINGS]: stored }) => {
  const settings = /** @type {Partial<SentienceSettings> | undefined} */ (stored);
  const mode = (settings && settings.defaultMode) || SentienceProtocol.DEFAULT_SETTINGS.defaultMode;
  const radio = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name=mode][value=${mode}]`));
  if (radio) radio.checked = true;
});
chrome.storage.onChanged.addListener(render);
render();
