// @ts-check
// The Run view: the task box for the tab the panel is beside, then the run
// as it happens (steps, the current address, pause/resume and stop, the
// question in careful mode with the element it is about, the result with
// copy). Everything shown comes from the run's record (run-feed.js), so a
// panel closed and opened again shows the same run where it is.
'use strict';

globalThis.SentienceLiveRun = (() => {
  const { MSG, STORAGE, DEFAULT_SETTINGS, TERMINAL_STATUSES } = SentienceProtocol;
  const U = SentiencePanelUtil;
  const Feed = SentienceRunFeed;
  const Server = SentienceServerStatus;
  // A finished run stays in the Run view this long (then it is in History).
  const RECENT_MS = 30 * 60 * 1000;

  /** @param {string} id */
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  /** @param {SentienceRun} r */
  const ended = (r) => TERMINAL_STATUSES.includes(r.status);

  /** @type {chrome.tabs.Tab | null} */
  let tab = null;
  /** @type {string | null} the run this panel started or was asked to show */
  let selected = null;
  /** @type {Set<string>} runs put away with "New task" */
  const dismissed = new Set();
  let modeTouched = false;
  let askShown = ''; // the question last brought to the user's attention
  let statusSaid = '';

  /** The run the view shows, if any. */
  function shown() {
    const chosen = selected ? Feed.get(selected) : null;
    if (chosen && !dismissed.has(chosen.runId)) return chosen;
    const mine = Feed.all().filter((r) => tab && r.tabId === tab.id);
    const live = mine.find((r) => !ended(r));
    if (live) return live;
    const last = mine[0];
    if (last && !dismissed.has(last.runId) && Date.now() - (last.endedAt || last.updatedAt) < RECENT_MS) return last;
    return null;
  }

  /** Whether the tab can be driven (the content script enters only web pages). */
  const drivable = () => Boolean(tab && tab.url && /^https?:/.test(tab.url));

  function drawComposer() {
    const st = Server.current();
    const tabLine = $('target-tab');
    tabLine.textContent = tab ? `Runs in this tab: ${tab.title || tab.url || 'a new tab'}${U.site(tab.url) ? ` (${U.site(tab.url)})` : ''}` : 'No tab to run in.';
    let blocked = '';
    if (st && !st.ok) blocked = 'Start is unavailable: the agent server is not reachable (see above).';
    else if (!drivable()) blocked = 'Open a web page (http or https) in this tab to run a task on it.';
    $('start-blocked').textContent = blocked;
    $('start-blocked').hidden = !blocked;
    const start = /** @type {HTMLButtonElement} */ (/** @type {unknown} */ ($('start')));
    if (start.dataset.busy !== 'true') start.disabled = Boolean(blocked) || !st;
  }

  /** @param {SentienceRun} run */
  function drawAsk(run) {
    const waiting = run.status === 'waiting_user';
    $('ask').hidden = !waiting;
    if (!waiting) return;
    const ask = run.ask || null;
    $('ask-question').textContent = run.question || (ask && ask.question) || 'The agent has a question.';
    const p = (ask && ask.params) || {};
    const typed = p.text ?? p.value;
    const action = ask && ask.tool ? `${ask.tool}${ask.tool === 'type' && typed !== undefined ? ` ${ask.masked ? typed : `“${typed}”`}` : ''}${ask.tool === 'press' && p.key ? ` ${p.key}` : ''}` : '';
    const element = ask && ask.element ? `“${ask.element.label || ask.element.text || '(no text)'}” (${ask.element.role})` : '';
    /** @type {[string, string][]} */
    const facts = [
      ['ask-action', action],
      ['ask-element', element],
      ['ask-reason', (ask && ask.reason) || ''],
    ];
    for (const [id, text] of facts) {
      $(id).textContent = text;
      $(id).hidden = !text;
      const dt = /** @type {HTMLElement | null} */ ($(id).previousElementSibling);
      if (dt) dt.hidden = !text;
    }
    $('ask-where').hidden = !element;
    // A new question: bring it to the user (keyboard and screen readers).
    const key = `${run.runId}:${run.log.length}:${run.question}`;
    if (askShown !== key) {
      askShown = key;
      $('ask-text').value = '';
      setAnswering(false);
      if (!document.getElementById('view-run')?.hidden) $('ask').focus();
    }
  }

  /** @param {boolean} busy */
  function setAnswering(busy) {
    for (const id of ['approve', 'refuse']) /** @type {HTMLButtonElement} */ (/** @type {unknown} */ ($(id))).disabled = busy;
  }

  /** @param {SentienceRun} run */
  function drawOutcome(run) {
    const done = ended(run);
    $('outcome').hidden = !done;
    if (!done) return;
    const text = run.status === 'completed' ? run.result || '(no result text)' : run.status === 'error' ? run.error || 'The run failed.' : run.log.filter((e) => e.kind === 'cancelled').map((e) => e.text).pop() || 'Stopped.';
    $('outcome-title').textContent = run.status === 'completed' ? 'Result' : run.status === 'error' ? 'It failed' : 'Stopped';
    $('outcome').classList.toggle('error', run.status === 'error');
    $('outcome-text').textContent = text;
    $('outcome-copy').hidden = run.status !== 'completed' && run.status !== 'error';
  }

  /** @param {SentienceRun} run */
  function drawRun(run) {
    const state = U.runState(run);
    $('live-task').textContent = run.task;
    $('live-status').textContent = state.text;
    $('live-status').className = `chip ${state.kind}`;
    $('live-progress').textContent = `Step ${run.currentStep} of ${run.maxSteps} · ${run.mode}${run.tabId !== (tab && tab.id) ? ' · in another tab' : ''}`;
    $('live-url').textContent = run.url || run.startUrl || '';
    $('live-url-line').hidden = !(run.url || run.startUrl);
    const live = !ended(run);
    $('live-controls').hidden = !live;
    $('pause').textContent = run.paused ? 'Resume' : 'Pause';
    $('pause').setAttribute('aria-pressed', String(Boolean(run.paused)));
    drawAsk(run);
    SentienceSteps.render(/** @type {HTMLOListElement} */ (/** @type {unknown} */ ($('steps'))), run);
    drawOutcome(run);
    const said = `${run.runId}:${state.text}`;
    if (statusSaid !== said) {
      statusSaid = said;
      $('run-message').textContent = `Run ${state.text.toLowerCase()}.`;
    }
  }

  /** Another tab's run waits for an answer: say so, with a way there. */
  function drawElsewhere() {
    const run = shown();
    const other = Feed.all().find((r) => r.status === 'waiting_user' && (!run || r.runId !== run.runId));
    const box = $('waiting-elsewhere');
    box.hidden = !other;
    if (!other) return;
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = 'Show the question';
    show.addEventListener('click', () => {
      selected = other.runId;
      dismissed.delete(other.runId);
      chrome.tabs.update(other.tabId, { active: true }).catch(() => {});
      render();
    });
    box.replaceChildren(document.createTextNode(`A task in another tab needs your answer: “${other.task}”. `), show);
  }

  function render() {
    const run = shown();
    SentienceRunStream.follow(run);
    $('composer').hidden = Boolean(run);
    $('live').hidden = !run;
    drawComposer();
    drawElsewhere();
    if (run) drawRun(run);
  }

  /**
   * Starts a run in the panel's tab; the view follows it.
   * @param {{task: string, mode: string, url?: string}} what
   * @returns {Promise<string>} its runId
   */
  async function startRun(what) {
    tab = await U.targetTab();
    if (!tab || tab.id === undefined) throw new Error('There is no tab to run in.');
    const url = what.url && /^https?:\/\//.test(what.url) ? what.url : undefined;
    if (!url && !drivable()) throw new Error('Open a web page (http or https) in this tab first.');
    const { runId } = await U.send({ type: MSG.RUN_START, task: what.task, mode: what.mode, tabId: tab.id, ...(url ? { url } : {}) });
    selected = runId;
    render();
    return runId;
  }

  async function onSubmit() {
    const start = /** @type {HTMLButtonElement} */ (/** @type {unknown} */ ($('start')));
    const task = $('task').value.trim();
    $('start-error').hidden = true;
    if (!task) {
      $('start-error').textContent = 'Describe the task first.';
      $('start-error').hidden = false;
      $('task').focus();
      return;
    }
    const mode = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name=mode]:checked'));
    start.disabled = true;
    start.dataset.busy = 'true';
    start.textContent = 'Starting…';
    try {
      await startRun({ task, mode: mode ? mode.value : DEFAULT_SETTINGS.defaultMode });
      $('task').value = '';
    } catch (err) {
      SentienceSettingsForm.showText($('start-error'), err instanceof Error ? err.message : String(err));
      $('start-error').hidden = false;
    } finally {
      start.dataset.busy = '';
      start.textContent = 'Start';
      drawComposer();
    }
  }

  /**
   * @param {{type: string, [key: string]: unknown}} msg
   */
  async function act(msg) {
    try {
      await U.send(msg);
    } catch (e) {
      $('run-message').textContent = e instanceof Error ? e.message : String(e);
    }
  }

  async function answer(/** @type {boolean} */ approved) {
    const run = shown();
    if (!run) return;
    setAnswering(true);
    const text = $('ask-text').value.trim();
    try {
      await U.send({ type: MSG.RUN_ANSWER, runId: run.runId, approved, ...(approved && text ? { answer: text } : {}) });
    } catch (e) {
      $('run-message').textContent = e instanceof Error ? e.message : String(e);
      setAnswering(false);
    }
  }

  async function defaultMode() {
    if (modeTouched) return;
    const { [STORAGE.SETTINGS]: stored } = await chrome.storage.local.get(STORAGE.SETTINGS);
    const s = /** @type {Partial<SentienceSettings> | undefined} */ (stored);
    const mode = (s && s.defaultMode) || DEFAULT_SETTINGS.defaultMode;
    const radio = /** @type {HTMLInputElement | null} */ (document.querySelector(`input[name=mode][value=${mode}]`));
    if (radio) radio.checked = true;
  }

  async function retarget() {
    tab = await U.targetTab();
    render();
  }

  function init() {
    $('composer').addEventListener('submit', (e) => {
      e.preventDefault();
      onSubmit();
    });
    $('task').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        onSubmit();
      }
    });
    for (const radio of document.querySelectorAll('input[name=mode]')) radio.addEventListener('change', () => (modeTouched = true));
    $('pause').addEventListener('click', () => {
      const run = shown();
      if (run) act({ type: run.paused ? MSG.RUN_RESUME : MSG.RUN_PAUSE, runId: run.runId });
    });
    $('stop').addEventListener('click', () => {
      const run = shown();
      if (run) act({ type: MSG.RUN_CANCEL, runId: run.runId });
    });
    $('approve').addEventListener('click', () => answer(true));
    $('refuse').addEventListener('click', () => answer(false));
    $('ask-text').addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        answer(true);
      }
    });
    $('outcome-copy').addEventListener('click', () => U.copy($('outcome-text').textContent || '', $('outcome-copy')));
    $('new-task').addEventListener('click', () => {
      const run = shown();
      if (run) dismissed.add(run.runId);
      selected = null;
      render();
      $('task').focus();
    });
    $('run-again').addEventListener('click', () => {
      const run = shown();
      if (!run) return;
      startRun({ task: run.task, mode: run.mode, url: run.startUrl }).catch((e) => {
        $('run-message').textContent = e instanceof Error ? e.message : String(e);
      });
    });
    chrome.tabs.onActivated.addListener(retarget);
    chrome.tabs.onUpdated.addListener((id, info) => {
      if (tab && id === tab.id && (info.url || info.title || info.status)) retarget();
    });
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && changes[STORAGE.SETTINGS]) defaultMode();
    });
    Feed.subscribe(render);
    Server.subscribe(() => drawComposer());
    defaultMode();
    return retarget();
  }

  return { init, render, startRun };
})();
