// @ts-check
// The history of runs: a finished run's record (storage.local,
// STORAGE.RUN_PREFIX + runId) stays where it was written, made smaller (what only a
// live run needs is dropped), and the oldest finished runs go once the
// history passes HISTORY.MAX_RUNS runs or HISTORY.MAX_BYTES (protocol.js).
// The side panel lists them, opens one, re-runs its task; `sentience run`,
// the SDKs and the tests read a run's record by its id, finished or not.
'use strict';

globalThis.SentienceHistory = (() => {
  const P = SentienceProtocol;
  const TERMINAL = new Set(P.TERMINAL_STATUSES);

  /**
   * Drops from a run that has just ended what only a live run needs (the
   * last snapshot's elements, the pending tool and question); notes when
   * it ended.
   * @param {SentienceRun} run
   */
  function compact(run) {
    delete run.lastElements;
    run.pendingTool = null;
    run.executing = false;
    run.lastActionResult = null;
    run.ask = null;
    run.paused = false;
    if (!run.endedAt) run.endedAt = Date.now();
  }

  /**
   * The finished runs that do not fit the history, oldest first to go:
   * the newest are kept while both limits hold. Live runs are not history
   * and never dropped.
   * @param {SentienceRun[]} runs
   * @param {{MAX_RUNS: number, MAX_BYTES: number}} [limits]
   * @returns {string[]} their ids
   */
  function overflow(runs, limits = P.HISTORY) {
    const newestFirst = runs.filter((r) => TERMINAL.has(r.status)).sort((a, b) => b.createdAt - a.createdAt);
    let kept = 0;
    let bytes = 0;
    /** @type {string[]} */
    const drop = [];
    for (const run of newestFirst) {
      const size = JSON.stringify(run).length;
      if (kept < limits.MAX_RUNS && bytes + size <= limits.MAX_BYTES) {
        kept++;
        bytes += size;
      } else {
        drop.push(run.runId);
      }
    }
    return drop;
  }

  /** @param {SentienceRun[]} runs every run record */
  async function prune(runs) {
    const drop = overflow(runs);
    if (drop.length) await chrome.storage.local.remove(drop.map((id) => `${P.STORAGE.RUN_PREFIX}${id}`));
  }

  /** @param {SentienceRun[]} runs every run record */
  async function clear(runs) {
    await chrome.storage.local.remove(runs.filter((r) => TERMINAL.has(r.status)).map((r) => `${P.STORAGE.RUN_PREFIX}${r.runId}`));
  }

  return { compact, overflow, prune, clear };
})();
