// @ts-check
// The History view: finished runs, newest first (task, site, status, steps,
// result, when), kept by the service worker within a size cap
// (run/history.js). Open one to read its steps; run it again in the
// panel's tab with one click (starting from the address it started on);
// clear them all.
'use strict';

globalThis.SentienceHistoryView = (() => {
  const { MSG, TERMINAL_STATUSES } = SentienceProtocol;
  const U = SentiencePanelUtil;
  const Feed = SentienceRunFeed;

  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  /** @type {string | null} */
  let opened = null;
  /** @type {(view: string) => void} */
  let show = () => {};

  const finished = () => Feed.all().filter((r) => TERMINAL_STATUSES.includes(r.status));
  /** @param {SentienceRun} r */
  const stepsOf = (r) => r.log.filter((e) => e.kind === 'tool').length;
  /** @param {SentienceRun} r */
  const outcomeOf = (r) => (r.status === 'completed' ? r.result || '' : r.status === 'error' ? r.error || '' : r.log.filter((e) => e.kind === 'cancelled').map((e) => e.text).pop() || '');

  /**
   * @param {string} tag
   * @param {string} className
   * @param {string} [text]
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {SentienceRun} run */
  function item(run) {
    const state = U.runState(run);
    const button = /** @type {HTMLButtonElement} */ (el('button', 'history-item'));
    button.type = 'button';
    button.dataset.runId = run.runId;
    const meta = el('span', 'meta');
    const steps = stepsOf(run);
    meta.append(el('span', `chip ${state.kind}`, state.text), ' ', el('span', '', [U.site(run.startUrl), `${steps} step${steps === 1 ? '' : 's'}`, U.ago(run.endedAt || run.updatedAt)].filter(Boolean).join(' · ')));
    button.append(el('span', 'task', run.task), ' ', meta);
    const outcome = outcomeOf(run);
    if (outcome) button.append(' ', el('span', 'result', outcome));
    button.addEventListener('click', () => open(run.runId));
    const li = document.createElement('li');
    li.append(button);
    return li;
  }

  function drawList() {
    const runs = finished();
    $('history-empty').hidden = runs.length > 0;
    /** @type {HTMLButtonElement} */ ($('history-clear')).disabled = runs.length === 0;
    $('history-list').replaceChildren(...runs.map(item));
  }

  function drawDetail() {
    const run = opened ? Feed.get(opened) : null;
    $('history-detail').hidden = !run;
    $('history-list').hidden = Boolean(run);
    $('history-clear').hidden = Boolean(run);
    $('history-empty').hidden = Boolean(run) || finished().length > 0;
    if (!run) return;
    const state = U.runState(run);
    $('history-detail-task').textContent = run.task;
    $('history-detail-status').textContent = state.text;
    $('history-detail-status').className = `chip ${state.kind}`;
    $('history-detail-meta').textContent = [run.mode, run.startUrl, new Date(run.createdAt).toLocaleString(), run.endedAt ? `took ${U.duration(run.endedAt - run.createdAt)}` : ''].filter(Boolean).join(' · ');
    SentienceSteps.render(/** @type {HTMLOListElement} */ ($('history-steps')), run);
    $('history-detail-outcome').textContent = outcomeOf(run);
    $('history-copy').hidden = !outcomeOf(run);
  }

  function render() {
    drawList();
    drawDetail();
  }

  /** @param {string | null} runId */
  function open(runId) {
    opened = runId;
    $('history-rerun-error').hidden = true;
    render();
    (runId ? $('history-back') : $('history-title')).focus();
  }

  /** @param {{show: (view: string) => void}} hooks */
  function init(hooks) {
    show = hooks.show;
    $('history-back').addEventListener('click', () => open(null));
    $('history-rerun').addEventListener('click', async () => {
      const run = opened ? Feed.get(opened) : null;
      if (!run) return;
      try {
        await SentienceLiveRun.startRun({ task: run.task, mode: run.mode, url: run.startUrl });
        opened = null;
        show('run');
      } catch (e) {
        SentienceSettingsForm.showText($('history-rerun-error'), e instanceof Error ? e.message : String(e));
        $('history-rerun-error').hidden = false;
      }
    });
    $('history-copy').addEventListener('click', () => {
      const run = opened ? Feed.get(opened) : null;
      if (run) U.copy(outcomeOf(run), $('history-copy'));
    });
    $('history-clear').addEventListener('click', () => {
      const n = finished().length;
      $('history-confirm-text').textContent = `Delete the ${n} finished run${n === 1 ? '' : 's'} from the history? Runs under way stay.`;
      $('history-confirm').hidden = false;
      $('history-confirm-no').focus();
    });
    $('history-confirm-no').addEventListener('click', () => {
      $('history-confirm').hidden = true;
      $('history-clear').focus();
    });
    $('history-confirm-yes').addEventListener('click', async () => {
      await U.send({ type: MSG.RUNS_CLEAR });
      $('history-confirm').hidden = true;
      opened = null;
      $('history-title').setAttribute('tabindex', '-1');
      $('history-title').focus();
    });
    Feed.subscribe(render);
    render();
  }

  return { init, render, open };
})();
