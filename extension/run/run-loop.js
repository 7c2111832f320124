// @ts-check
// The agent run loop (docs/architecture.md, "An agent run"), driven by the service
// worker against the agent server's run API (docs/contracts/run-api.md):
//   start → loop { snapshot of the run's tab → /step {snapshot, lastActionResult}
//                  → execute the tool in the tab } until finish / error / cancelled.
//
// Manifest V3 stops service workers at any time, so the loop keeps no state
// in memory: every transition is written to chrome.storage.local first, and
// a restarted worker resumes each unfinished run from its record:
// - phase "step": the /step request may or may not have reached the server;
//   it is re-sent with the same Idempotency-Key, and the server replays its
//   stored answer instead of advancing twice;
// - phase "execute" with `executing` set: the worker died during the action;
//   it is not repeated (it may have happened), and the server is told the
//   outcome is unknown, so the policy looks again before acting.
'use strict';

globalThis.SentienceRuns = (() => {
  const P = SentienceProtocol;
  /** @param {string} runId */
  const KEY = (runId) => `${P.STORAGE.RUN_PREFIX}${runId}`;
  const TERMINAL = new Set(P.TERMINAL_STATUSES);
  const MAX_LOG = 200;
  const drivers = new Map(); // runId → Promise (one driver per run per worker life)

  /** @returns {Promise<SentienceSettings>} */
  async function settings() {
    const { [P.STORAGE.SETTINGS]: s } = await chrome.storage.local.get(P.STORAGE.SETTINGS);
    return { ...P.DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (s || {}) };
  }

  /**
   * @param {string} runId
   * @returns {Promise<SentienceRun | null>}
   */
  async function load(runId) {
    const got = await chrome.storage.local.get(KEY(runId));
    return /** @type {SentienceRun | undefined} */ (got[KEY(runId)]) || null;
  }

  // Runs this worker has cancelled: a driver still holding an older copy
  // of the record must not write it back over the cancellation. A tab
  // closed while its action ran was otherwise saved as running again after
  // the action failed, and the server's answer to the next step (the run
  // was cancelled there) then made it an error.
  const cancelled = new Set();

  /** @param {SentienceRun} run */
  async function save(run) {
    if (cancelled.has(run.runId) && run.status !== 'cancelled') return;
    run.updatedAt = Date.now();
    if (run.log.length > MAX_LOG) run.log = run.log.slice(-MAX_LOG);
    await chrome.storage.local.set({ [KEY(run.runId)]: run });
    await badge();
  }

  /** @returns {Promise<SentienceRun[]>} */
  async function allRuns() {
    const everything = await chrome.storage.local.get(null);
    return Object.keys(everything)
      .filter((k) => k.startsWith(P.STORAGE.RUN_PREFIX))
      .map((k) => /** @type {SentienceRun} */ (everything[k]))
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  // The icon's badge: "?" while a run waits for the user, "…" while one runs.
  async function badge() {
    const runs = await allRuns();
    const waiting = runs.some((r) => r.status === 'waiting_user');
    const running = runs.some((r) => !TERMINAL.has(r.status));
    await chrome.action.setBadgeText({ text: waiting ? '?' : running ? '…' : '' });
    // While runs are unfinished, an alarm wakes a stopped worker so it can
    // resume them (MV3 stops idle workers; nothing else would restart it).
    if (running) await chrome.alarms.create(P.RUNS_ALARM, { periodInMinutes: 0.5 });
    else await chrome.alarms.clear(P.RUNS_ALARM);
    await chrome.action.setBadgeBackgroundColor({ color: waiting ? '#dc2626' : '#2563eb' });
  }

  /**
   * @param {SentienceRun} run
   * @param {Omit<SentienceRunLogEntry, 'at' | 'step'>} entry
   */
  function logLine(run, entry) {
    run.log.push({ at: Date.now(), step: run.currentStep, ...entry });
  }

  /**
   * The server's view of the run (RunState): step counts and status.
   * @param {SentienceRun} run
   * @param {any} state
   */
  function applyState(run, state) {
    if (!state) return;
    if (typeof state.currentStep === 'number') run.currentStep = state.currentStep;
    if (typeof state.maxSteps === 'number') run.maxSteps = state.maxSteps;
    if (typeof state.status === 'string') run.status = state.status;
  }

  /**
   * The text of the element a tool acts on, as the last snapshot showed it.
   * @param {SentienceRun} run
   * @param {{parameters?: any}} tool
   * @returns {string | null}
   */
  function targetText(run, tool) {
    const id = tool.parameters && tool.parameters.id;
    if (id === undefined || !run.lastSnapshotTexts) return null;
    const key = String(id).replace(/^agent-/, '');
    return run.lastSnapshotTexts[key] ?? null;
  }

  /**
   * What each kind of server answer (`action` of /step and /answer) does to
   * the run record.
   * @type {Record<string, (run: SentienceRun, res: any) => void>}
   */
  const ANSWERS = {
    execute_tool: (run, res) => {
      const tool = res.tool || { name: 'observe', parameters: {} };
      if (tool.name === 'finish') {
        run.status = 'completed';
        run.result = String((tool.parameters && (tool.parameters.result ?? tool.parameters.answer)) ?? '');
        run.phase = 'done';
        logLine(run, { kind: 'finish', text: run.result });
      } else if (tool.name === 'ask_user') {
        run.status = 'waiting_user';
        run.question = String((tool.parameters && (tool.parameters.question ?? tool.parameters.text)) ?? 'The agent has a question.');
        run.phase = 'ask';
        logLine(run, { kind: 'ask', text: run.question });
      } else {
        run.phase = 'execute';
        run.pendingTool = tool;
        run.executing = false;
        logLine(run, { kind: 'tool', tool: tool.name, params: tool.parameters || {}, target: targetText(run, tool) });
      }
    },
    ask_user: (run, res) => {
      run.status = 'waiting_user';
      run.question = res.question;
      run.phase = 'ask';
      logLine(run, { kind: 'ask', text: res.question });
    },
    finish: (run, res) => {
      run.status = 'completed';
      run.result = res.result;
      run.phase = 'done';
      logLine(run, { kind: 'finish', text: res.result });
    },
    error: (run, res) => {
      run.status = 'error';
      run.error = res.error;
      run.phase = 'done';
      logLine(run, { kind: 'error', text: res.error });
    },
  };

  /**
   * Applies one server answer (from /step or /answer) to the run record.
   * @param {SentienceRun} run
   * @param {any} res
   */
  function applyAnswer(run, res) {
    applyState(run, res.state);
    if (Array.isArray(res.reflections)) run.reflections = res.reflections;
    if (Object.prototype.hasOwnProperty.call(ANSWERS, res.action)) {
      ANSWERS[res.action](run, res);
      return;
    }
    run.status = 'error';
    run.error = `unexpected answer from the server: ${JSON.stringify(res).slice(0, 200)}`;
    run.phase = 'done';
  }

  /**
   * @param {SentienceRun} run
   * @param {string} message
   */
  function fail(run, message) {
    run.status = 'error';
    run.error = message;
    run.phase = 'done';
    logLine(run, { kind: 'error', text: message });
  }

  /** @param {SentienceRun} run */
  async function notifyQuestion(run) {
    try {
      await chrome.notifications.create(`${P.ASK_NOTIFICATION_PREFIX}${run.runId}`, {
        type: 'basic',
        iconUrl: chrome.runtime.getURL('extension/icons/icon-128.png'),
        title: 'Sentience needs your answer',
        message: run.question || '',
        buttons: [{ title: 'Approve' }, { title: 'Refuse' }],
        requireInteraction: true,
        priority: 2,
      });
    } catch (e) {
      // Notifications may be disabled; the badge and the popup still show it.
    }
  }

  // One iteration of the state machine; returns false when the driver should stop.
  /**
   * @param {SentienceRun} run
   * @param {SentienceSettings} s
   */
  async function advance(run, s) {
    if (TERMINAL.has(run.status) || run.phase === 'done') return false;
    if (run.phase === 'ask') return false; // waits for answer()

    if (run.phase === 'execute') {
      let outcome;
      if (run.executing) {
        outcome = { success: true, message: 'The extension restarted while this action ran; its outcome is unknown. Observe the page before repeating it.' };
        logLine(run, { kind: 'resume', text: 'resumed after a restart; the interrupted action was not repeated' });
      } else {
        run.executing = true;
        await save(run);
        outcome = await SentienceTools.execute(run.tabId, run.pendingTool);
      }
      run.lastActionResult = outcome;
      run.executing = false;
      run.pendingTool = null;
      run.phase = 'step';
      run.seq++;
      if (run.log.length) run.log[run.log.length - 1].result = outcome;
      await save(run);
      return true;
    }

    // phase "step"
    let snapshot = null;
    try {
      snapshot = await SentienceTools.observe(run.tabId);
      run.lastSnapshotTexts = Object.fromEntries(snapshot.elements.map((/** @type {{id: number, text: string}} */ e) => [String(e.id), e.text]));
    } catch (e) {
      // A page the content script cannot enter (chrome://, the web store, a
      // PDF): the server still gets a call and can navigate away.
      snapshot = null;
      run.lastActionResult = run.lastActionResult || { success: false, error: `cannot read the page: ${e instanceof Error ? e.message : e}` };
    }
    const res = await SentienceApi.step(s, run.runId, { snapshot, lastActionResult: run.lastActionResult ?? null }, `${run.runId}:step:${run.seq}`);
    const cur = await load(run.runId); // cancelled meanwhile?
    if (cur && TERMINAL.has(cur.status)) return false;
    applyAnswer(run, res);
    await save(run);
    // (Read afresh: applyAnswer moved the run on, which tsc cannot see.)
    /** @type {string} */
    const phase = run.phase;
    if (phase === 'ask') await notifyQuestion(run);
    return !TERMINAL.has(run.status) && phase !== 'ask';
  }

  /**
   * @param {string} runId
   * @returns {Promise<void>}
   */
  function drive(runId) {
    if (drivers.has(runId)) return drivers.get(runId);
    const p = (async () => {
      const s = await settings();
      for (;;) {
        const run = await load(runId);
        if (!run) return;
        let more;
        try {
          more = await advance(run, s);
        } catch (e) {
          const latest = (await load(runId)) || run;
          if (!TERMINAL.has(latest.status)) {
            fail(latest, e instanceof SentienceApi.ApiError ? `agent server: ${e.message}` : `run failed: ${e instanceof Error ? e.message : e}`);
            await save(latest);
          }
          return;
        }
        if (!more) return;
      }
    })().finally(() => drivers.delete(runId));
    drivers.set(runId, p);
    return p;
  }

  /** @param {{task: string, mode: string, tabId: number, url?: string}} request a validated UI message (protocol.js) */
  async function start({ task, mode, tabId, url }) {
    const s = await settings();
    if (url) await chrome.tabs.update(tabId, { url });
    const res = await SentienceApi.start(s, task, mode);
    if (!res || !res.success || typeof res.runId !== 'string') throw new Error('the server did not start the run');
    /** @type {SentienceRun} */
    const run = {
      runId: res.runId,
      tabId,
      task,
      mode,
      status: res.state ? res.state.status : 'created',
      currentStep: 0,
      maxSteps: res.state ? res.state.maxSteps : 150,
      phase: 'step',
      seq: 0,
      executing: false,
      pendingTool: null,
      lastActionResult: null,
      question: null,
      result: null,
      error: null,
      reflections: [],
      log: [],
      createdAt: Date.now(),
      updatedAt: Date.now(),
    };
    if (url) await SentienceTools.waitReady(tabId, 30000);
    await save(run);
    drive(run.runId);
    return run.runId;
  }

  /**
   * @param {string} runId
   * @param {boolean} approved
   * @param {string} [text]
   */
  async function answer(runId, approved, text) {
    const run = await load(runId);
    if (!run) throw new Error(`no run ${runId}`);
    if (run.status !== 'waiting_user') throw new Error(`run ${runId} is not waiting for an answer (status ${run.status})`);
    const s = await settings();
    chrome.notifications.clear(`${P.ASK_NOTIFICATION_PREFIX}${runId}`).catch(() => {});
    logLine(run, { kind: 'answer', text: approved ? `approved${text ? `: ${text}` : ''}` : 'refused' });
    const res = await SentienceApi.answer(s, runId, { approved, ...(text ? { answer: text } : {}) }, `${runId}:answer:${run.seq}`);
    run.question = null;
    if (!approved) {
      applyState(run, res.state);
      run.status = 'cancelled';
      run.phase = 'done';
      logLine(run, { kind: 'cancelled', text: 'refused by the user' });
    } else {
      run.status = 'running';
      run.phase = 'step';
      applyAnswer(run, res);
      if (run.phase === 'step') {
        // The answer said to go on without a tool: the user's reply is the last result.
        run.lastActionResult = { success: true, message: text ? `User answered: ${text}` : 'User approved' };
        run.seq++;
      }
    }
    await save(run);
    drive(runId);
  }

  /**
   * @param {string} runId
   * @param {string} [why]
   */
  async function cancel(runId, why = 'cancelled by the user') {
    cancelled.add(runId); // at once: a driver's save may be on its way
    const run = await load(runId);
    if (!run || TERMINAL.has(run.status)) return;
    run.status = 'cancelled';
    run.phase = 'done';
    logLine(run, { kind: 'cancelled', text: why });
    await save(run);
    chrome.notifications.clear(`${P.ASK_NOTIFICATION_PREFIX}${runId}`).catch(() => {});
    try {
      await SentienceApi.cancel(await settings(), runId);
    } catch (e) {
      // The run is cancelled here whatever the server says (it may be down).
    }
  }

  // A restarted worker picks up every unfinished run.
  async function resumeAll() {
    for (const run of await allRuns()) {
      if (!TERMINAL.has(run.status) && run.phase !== 'ask') drive(run.runId);
    }
    await badge();
  }

  /** @param {number} tabId */
  async function onTabRemoved(tabId) {
    for (const run of await allRuns()) {
      if (run.tabId === tabId && !TERMINAL.has(run.status)) await cancel(run.runId, 'the run\'s tab was closed');
    }
  }

  async function clearFinished() {
    const done = (await allRuns()).filter((r) => TERMINAL.has(r.status)).map((r) => KEY(r.runId));
    await chrome.storage.local.remove(done);
  }

  return { start, answer, cancel, resumeAll, onTabRemoved, clearFinished, settings, allRuns, load };
})();
