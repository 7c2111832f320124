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
// Sources: `storage` (always) and, where the agent server offers one, a
// live stream of a run's events (`sources` below). A source turns what it
// hears into run records, which the feed merges by runId, newest
// `updatedAt` first; the views only ever see records.
'use strict';

globalThis.SentienceRunFeed = (() => {
  const { STORAGE } = SentienceProtocol;
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
  // addSource() before start() (a stream of the agent server's events).
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
    /** @param {{start: () => Promise<void>}} source */
    addSource: (source) => sources.push(source),
    /** @param {() => void} fn */
    subscribe: (fn) => listeners.add(fn),
    /** @param {string} runId */
    get: (runId) => runs.get(runId) || null,
    /** Every run, newest first. */
    all: () => [...runs.values()].sort((a, b) => b.createdAt - a.createdAt),
  };
})();
