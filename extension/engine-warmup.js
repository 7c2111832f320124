// @ts-check
// Whether pages should prepare the snapshot engine in idle time after they
// load (docs/benchmarks.md, "Real pages: the first snapshot").
//
// The first snapshot of a page used to pay for fetching, compiling and
// instantiating the WebAssembly engine and for compiling its functions on
// their first call. A content script cannot share a compiled module with
// another page (each document has its own isolated world), so the top
// frame of each page loads and warms the engine up when the page has gone
// idle, but only in a browser session in which window.sentience has been
// used at all: a person's ordinary browsing never pays for it (nor trips a
// strict page CSP's report of the blocked WebAssembly compile).
// The flag lives in chrome.storage.session: it survives this worker being
// stopped, not the browser.
'use strict';

globalThis.SentienceWarmup = (() => {
  const { MSG, STORAGE } = SentienceProtocol;
  const KEY = STORAGE.API_USED;
  /** @type {boolean | null} null: not read yet */
  let used = null;

  async function isUsed() {
    if (used === null) {
      try {
        used = Boolean((await chrome.storage.session.get(KEY))[KEY]);
      } catch (e) {
        used = false;
      }
    }
    return used;
  }

  function markUsed() {
    if (used === true) return;
    used = true;
    chrome.storage.session.set({ [KEY]: true }).catch(() => {});
  }

  /**
   * The messages this file answers, from our content scripts in tabs: each
   * handler returns true when it answers asynchronously (sendResponse later).
   * @type {Record<string, (sendResponse: (answer: any) => void) => boolean>}
   */
  const HANDLERS = {
    [MSG.ENGINE_USED]: () => {
      markUsed();
      return false;
    },
    [MSG.ENGINE_WARM]: (sendResponse) => {
      isUsed().then((warm) => sendResponse({ warm }));
      return true;
    },
  };

  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !msg || !sender.tab) return false;
    const handle = Object.prototype.hasOwnProperty.call(HANDLERS, msg.type) ? HANDLERS[msg.type] : null;
    return handle ? handle(sendResponse) : false;
  });

  // Forgets the use (benchmarks measure pages' first snapshots without the
  // warm-up: tests/bench/real-pages-snapshot.mjs --no-warmup).
  function reset() {
    used = false;
    return chrome.storage.session.remove(KEY).catch(() => {});
  }

  return { isUsed, markUsed, reset };
})();
