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
// A paused run keeps its record and its place; the loop stops after the
// step under way and goes on from there when resumed. A finished run stays
// as the history's entry (run/history.js).
'use strict';

globalThis.SentienceRuns = (() => {
  const P = SentienceProtocol;
  /** @param {string} runId */
  const KEY = (runId) => `${P.STORAGE.RUN_PREFIX}${runId}`;
  const TERMINAL = new Set(P.TERMINAL_STATUSES);
  const MAX_LOG = 200;
  const REFLECT_EVERY = 5; // crates/agent/src/reflect.rs EVERY
  // How a run record changes with what the server answers (run/run-record.js).
  const { logLine, applyState, applyAnswer, fail, remember } = SentienceRunRecord;
  const drivers = new Map(); // runId → Promise (one driver per run per worker life)
  // runId → status of every run this worker knows, for the badge: reading
  // every record (the history's too) at each save would cost more as the
  // history grows. Filled from storage once per worker life.
  /** @type {Map<string, string> | null} */
  let statuses = null;

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
  // Pause and resume, as the user last asked (runId → paused), applied by
  // every save: a driver's older copy of the record must not undo them.
  /** @type {Map<string, boolean>} */
  const pauseWanted = new Map();

  /** @param {SentienceRun} run */
  function isPaused(run) {
    return pauseWanted.has(run.runId) ? Boolean(pauseWanted.get(run.runId)) : Boolean(run.paused);
  }

  /** @param {SentienceRun} run */
  function applyPause(run) {
    const want = isPaused(run);
    if (Boolean(run.paused) === want) return;
    run.paused = want;
    logLine(run, { kind: want ? 'paused' : 'resumed', text: want ? 'paused by the user' : 'resumed by the user' });
  }

  /** @param {SentienceRun} run */
  async function save(run) {
    if (cancelled.has(run.runId) && run.status !== 'cancelled') return;
    run.updatedAt = Date.now();
    const ended = TERMINAL.has(run.status) && !run.endedAt;
    if (ended) {
      if (run.ask) await SentienceApproval.release(run);
      SentienceHistory.compact(run);
      pauseWanted.delete(run.runId);
    } else {
      applyPause(run);
    }
    if (run.log.length > MAX_LOG) run.log = run.log.slice(-MAX_LOG);
    await chrome.storage.local.set({ [KEY(run.runId)]: run });
    (await known()).set(run.runId, run.status);
    await badge();
    if (ended) await SentienceHistory.prune(await allRuns());
  }

  async function known() {
    if (!statuses) statuses = new Map((await allRuns()).map((r) => [r.runId, r.status]));
    return statuses;
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
    const all = [...(await known()).values()];
    const waiting = all.includes('waiting_user');
    const running = all.some((status) => !TERMINAL.has(status));
    await chrome.action.setBadgeText({ text: waiting ? '?' : running ? '…' : '' });
    // While runs are unfinished, an alarm wakes a stopped worker so it can
    // resume them (MV3 stops idle workers; nothing else would restart it).
    if (running) await chrome.alarms.create(P.RUNS_ALARM, { periodInMinutes: 0.5 });
    else await chrome.alarms.clear(P.RUNS_ALARM);
    await chrome.action.setBadgeBackgroundColor({ color: waiting ? '#dc2626' : '#2563eb' });
  }

  /**
   * The run as the server keeps it (GET /agent/run/:runId `state`), asked
   * once and briefly: null when the server does not answer in time.
   * @param {SentienceRun} run
   * @param {SentienceSettings} s
   */
  async function serverState(run, s) {
    try {
      const res = await SentienceApi.state(s, run.runId);
      return res && res.state ? res.state : null;
    } catch (e) {
      return null;
    }
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
      // Notifications may be disabled; the badge and the side panel still show it.
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
        const began = Date.now();
        outcome = await SentienceTools.execute(run.tabId, run.pendingTool);
        const line = run.log[run.log.length - 1];
        if (line && line.kind === 'tool') line.ms = Date.now() - began;
      }
      run.lastActionResult = outcome;
      run.executing = false;
      run.pendingTool = null;
      run.phase = 'step';
      run.seq++;
      if (run.log.length) run.log[run.log.length - 1].result = outcome;
      await save(run);
      return !isPaused(run);
    }

    // phase "step"
    let snapshot = null;
    try {
      snapshot = await SentienceTools.observe(run.tabId);
      remember(run, snapshot);
    } catch (e) {
      // A page the content script cannot enter (chrome://, the web store, a
      // PDF): the server still gets a call and can navigate away.
      snapshot = null;
      run.lastActionResult = run.lastActionResult || { success: false, error: `cannot read the page: ${e instanceof Error ? e.message : e}` };
    }
    const failed = Boolean(run.lastActionResult && run.lastActionResult.success === false);
    const res = await SentienceApi.step(s, run.runId, { snapshot, lastActionResult: run.lastActionResult ?? null }, `${run.runId}:step:${run.seq}`);
    const cur = await load(run.runId); // cancelled meanwhile?
    if (cur && TERMINAL.has(cur.status)) return false;
    applyAnswer(run, res);
    // (Read afresh: applyAnswer moved the run on, which tsc cannot see.)
    /** @type {string} */
    const phase = run.phase;
    // What /step does not carry, the run's state does: what a question is
    // about, and the reflections (docs/contracts/run-api.md §13: made every
    // REFLECT_EVERY steps and after a failed action; one made for a loop
    // alone shows at the next of those).
    if (phase === 'ask' || (phase !== 'done' && (failed || run.currentStep % REFLECT_EVERY === 0))) {
      const state = await serverState(run, s);
      if (state && Array.isArray(state.reflections)) run.reflections = state.reflections;
      if (phase === 'ask') SentienceApproval.prepare(run, state);
    }
    await save(run);
    if (phase === 'ask') {
      await SentienceApproval.show(run);
      await notifyQuestion(run);
    }
    return !TERMINAL.has(run.status) && phase !== 'ask' && !isPaused(run);
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
        if (!run || isPaused(run)) return;
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
    // Asked first, quickly: a server that is down is said now, in words,
    // not after the run API's retries.
    const reachable = await SentienceApi.status(s);
    if (!reachable.ok) throw new Error(`${reachable.error}. ${reachable.hint}`);
    if (url) await chrome.tabs.update(tabId, { url });
    const tab = url ? null : await chrome.tabs.get(tabId).catch(() => null);
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
      startUrl: url || (tab && tab.url) || '',
      paused: false,
      ask: null,
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
    await SentienceApproval.release(run);
    run.question = null;
    run.ask = null;
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
   * Pauses a live run after the step under way (a question waits anyway).
   * @param {string} runId
   */
  async function pause(runId) {
    await setPaused(runId, true);
  }

  /** @param {string} runId */
  async function resume(runId) {
    await setPaused(runId, false);
    // A driver still on the step it was paused in stops at its next check;
    // whatever it does, a driver runs after it.
    const current = drivers.get(runId);
    if (current) current.then(() => drive(runId));
    else drive(runId);
  }

  /**
   * @param {string} runId
   * @param {boolean} paused
   */
  async function setPaused(runId, paused) {
    const run = await load(runId);
    if (!run) throw new Error(`no run ${runId}`);
    if (TERMINAL.has(run.status)) throw new Error(`run ${runId} has ended (${run.status})`);
    pauseWanted.set(runId, paused);
    await save(run);
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

  // A restarted worker picks up every unfinished run whose tab is still
  // there (a browser that was closed during a run has not got it back).
  async function resumeAll() {
    for (const run of await allRuns()) {
      if (TERMINAL.has(run.status)) continue;
      if (!(await chrome.tabs.get(run.tabId).catch(() => null))) {
        await cancel(run.runId, 'its tab is gone (the browser was closed during the run)');
        continue;
      }
      if (run.phase === 'ask') await settleQuestion(run);
      else if (!run.paused) drive(run.runId);
    }
    await badge();
  }

  /**
   * A run waiting for the user here may have been ended on the server
   * meanwhile (cancelled by `sentience run` or another client, or expired):
   * asked on each wake-up, so the record, the badge and the page's
   * highlight do not wait for an answer nobody can give any more.
   * @param {SentienceRun} run
   */
  async function settleQuestion(run) {
    const state = await serverState(run, await settings());
    if (!state || !TERMINAL.has(state.status)) return;
    const latest = await load(run.runId);
    if (!latest || latest.phase !== 'ask') return; // answered meanwhile
    applyState(latest, state);
    latest.phase = 'done';
    latest.question = null;
    latest.ask = null;
    const why = `the agent server ended the run (${state.status}) while it waited for your answer`;
    if (latest.status === 'error') latest.error = state.error || why;
    logLine(latest, { kind: { cancelled: 'cancelled', completed: 'finish' }[latest.status] || 'error', text: why });
    await SentienceApproval.release(run);
    chrome.notifications.clear(`${P.ASK_NOTIFICATION_PREFIX}${run.runId}`).catch(() => {});
    await save(latest);
  }

  /** @param {number} tabId */
  async function onTabRemoved(tabId) {
    for (const run of await allRuns()) {
      if (run.tabId === tabId && !TERMINAL.has(run.status)) await cancel(run.runId, 'the run\'s tab was closed');
    }
  }

  async function clearFinished() {
    const runs = await allRuns();
    await SentienceHistory.clear(runs);
    statuses = null;
    await badge();
  }

  return { start, answer, cancel, pause, resume, resumeAll, onTabRemoved, clearFinished, settings, allRuns, load };
})();
