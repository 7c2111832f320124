// @ts-check
// Where agents work, documents load the content runtime before the first
// call (docs/architecture.md "Loaded on first use").
//
// Everywhere else a document holds only the facade and the bridge until it
// first calls the API, and that first call waits for the runtime to be
// injected (content/bridge.js `runtime`). On the origins the user has told
// us automation happens on — the trusted origins (options page, the
// `sentience` launchers, automation through this worker; and the
// administrator's policy, mirrored by policy-mirror.js) — this worker
// registers a content script (content/preload.js) that has the runtime and
// the engine loaded while the page loads, and the engine warmed once it is
// idle, so an agent's first snapshot does not wait. A person's ordinary browsing (no
// trusted origin) never pays for it: no storage read, nothing at all.
'use strict';

globalThis.SentienceRuntimePreload = (() => {
  const { STORAGE, PRELOAD_SCRIPT_ID } = SentienceProtocol;
  const KEYS = [STORAGE.TRUSTED_ORIGINS, STORAGE.MANAGED_TRUSTED_ORIGINS];

  /**
   * The match pattern of an origin ("https://app.example.com:8443" →
   * "https://app.example.com:8443/*"), or null for what is not an http(s) origin.
   * @param {unknown} origin
   */
  function patternOf(origin) {
    if (typeof origin !== 'string') return null;
    try {
      const u = new URL(origin.trim());
      return /^https?:$/.test(u.protocol) ? `${u.origin}/*` : null;
    } catch (e) {
      return null;
    }
  }

  let pending = Promise.resolve();
  /** Registers the preload for the trusted origins' documents (or none). */
  function sync() {
    pending = pending.then(async () => {
      const items = await chrome.storage.local.get(KEYS);
      const matches = [...new Set(KEYS.flatMap((k) => (Array.isArray(items[k]) ? items[k] : [])).map(patternOf).filter((p) => p !== null))];
      await chrome.scripting.unregisterContentScripts({ ids: [PRELOAD_SCRIPT_ID] }).catch(() => {});
      if (!matches.length) return;
      await chrome.scripting.registerContentScripts([{ id: PRELOAD_SCRIPT_ID, matches: /** @type {string[]} */ (matches), js: ['extension/content/preload.js'], runAt: 'document_start', allFrames: false, persistAcrossSessions: false }]);
    }).catch(() => {});
    return pending;
  }

  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && KEYS.some((k) => k in changes)) sync();
  });
  sync();
  return { sync, patternOf };
})();
