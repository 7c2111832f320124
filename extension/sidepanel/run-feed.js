// @ts-check
// Where the side panel learns what runs do.
//
// The service worker drives every run and writes its record to
// chrome.storage.local at each transition (run/run-loop.js): the feed
// reads the records once, then follows storage.onChanged, so each step
// shows as soon as it is written, and nothing is lost when the panel is
// closed and opened again (the records stay; the history is the finished
// ones).
//
// Sources: `storage` (always) and, where the agent server offers one, the
// live stream of a run's events (run-stream.js). Storage gives whole run
// records, merged by runId, newest `updatedAt` first; the stream gives what
// the server knows before the service worker does (`hear`: a run ended by
// another client, reflections), laid over the record by `view`, so the
// views only ever see records and nothing shows twice.
'use strict';

globalThis.SentienceRunFeed = (() => {
  const { STORAGE, TERMINAL_STATUSES } = SentienceProtocol;
  /** @type {Map<string, SentienceRun>} */
  const runs = new Map();
  /** @type {Set<() => void>} */
  const listeners = new Set();
  let notifyQueued = false;

  // Listeners hear once per burst of changes (a step writes its record a
  // few times in a row).
  function changed() {
    if (notifyQueued) return;
    notifyQueued = true;
    queueMicrotask(() => {
      notifyQueued = false;
      for (const fn of listeners) fn();
    });
  }

  /**
   * Takes a record from any source; an older copy never replaces a newer one.
   * @param {SentienceRun} run
   */
  function put(run) {
    const had = runs.get(run.runId);
    if (had && had.updatedAt > run.updatedAt) return;
    runs.set(run.runId, run);
    changed();
  }

  /**
   * What the server's stream said of a run (runId → what it heard).
   * @type {Map<string, {status?: string, result?: string, error?: string, at?: number, reflections: Map<number, any>}>}
   */
  const heard = new Map();

  /**
   * Takes what a live source heard of a run.
   * @param {string} runId
   * @param {{status?: string, result?: string, error?: string, at?: number, reflection?: any}} news
   */
  function hear(runId, news) {
    const h = heard.get(runId) || { reflections: new Map() };
    const { reflection, ...rest } = news;
    if (reflection && typeof reflection.stepNumber === 'number') h.reflections.set(reflection.stepNumber, reflection);
    Object.assign(h, rest);
    heard.set(runId, h);
    changed();
  }

  /**
   * The record with what the stream heard laid over it: the server's end of
   * the run when the record has none yet (the service worker learns of a
   * cancel by another client only at its next call), and the reflections
   * the record lacks, one per step (docs/server.md "Event format").
   * @param {SentienceRun} run
   * @returns {SentienceRun}
   */
  function view(run) {
    const h = heard.get(run.runId);
    if (!h) return run;
    const out = { ...run };
    if (h.status && TERMINAL_STATUSES.includes(h.status) && !TERMINAL_STATUSES.includes(run.status)) {
      Object.assign(out, { status: h.status, endedAt: h.at, ...(h.result !== undefined ? { result: h.result } : {}), ...(h.error !== undefined ? { error: h.error } : {}) });
    }
    const have = new Set((run.reflections || []).map((r) => r && r.stepNumber));
    const extra = [...h.reflections.values()].filter((r) => !have.has(r.stepNumber));
    if (extra.length) out.reflections = [...(run.reflections || []), ...extra].sort((a, b) => a.stepNumber - b.stepNumber);
    return out;
  }

  /** @param {string} runId */
  function drop(runId) {
    if (runs.delete(runId)) changed();
  }

  /** @param {string} key */
  const isRunKey = (key) => key.startsWith(STORAGE.RUN_PREFIX);

  /**
   * The service worker's records: all of them once, then each change.
   * @type {{start: () => Promise<void>}}
   */
  const storageSource = {
    async start() {
      chrome.storage.onChanged.addListener((changes, area) => {
        if (area !== 'local') return;
        for (const [key, change] of Object.entries(changes)) {
          if (!isRunKey(key)) continue;
          if (change.newValue) put(/** @type {SentienceRun} */ (change.newValue));
          else drop(key.slice(STORAGE.RUN_PREFIX.length));
        }
      });
      const everything = await chrome.storage.local.get(null);
      for (const [key, value] of Object.entries(everything)) if (isRunKey(key)) put(/** @type {SentienceRun} */ (value));
    },
  };

  // Every source the feed starts: the storage one, and any other added with
  // addSource() before start(). (The run stream is not one: it follows only
  // the run the panel shows, which the Run view picks: run-stream.js.)
  /** @type {{start: () => Promise<void>}[]} */
  const sources = [storageSource];

  let started = /** @type {Promise<void> | null} */ (null);
  function start() {
    if (!started) started = Promise.all(sources.map((src) => src.start())).then(() => changed());
    return started;
  }

  return {
    start,
    put,
    hear,
    /** @param {{start: () => Promise<void>}} source */
    addSource: (source) => sources.push(source),
    /** @param {() => void} fn */
    subscribe: (fn) => listeners.add(fn),
    /** @param {string} runId */
    get: (runId) => {
      const run = runs.get(runId);
      return run ? view(run) : null;
    },
    /** Every run, newest first. */
    all: () => [...runs.values()].map(view).sort((a, b) => b.createdAt - a.createdAt),
  };
})();
