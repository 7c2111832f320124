// @ts-check
// Who may see and do what through window.sentience (docs/api.md "Who may see
// and do what").
//
// A page script gets what the same-origin policy already gives it and
// nothing more: the "page" scope (its own document, same-origin frames
// through same-origin chains, no screenshots). The extension's own callers
// (agent runs, the popup, tests and launchers through the service worker)
// and scripts of origins the user has allowed get the "full" scope: every
// frame, screenshots.
//
// The allow-list lives in chrome.storage, which pages can neither read nor
// write: `trusted_origins` (an array of origins such as
// "https://app.example.com") in storage.local, set from the options page, by
// the `sentience` launchers or by automation through the service worker,
// and in storage.managed, set by an administrator's policy
// (extension/managed-schema.json). It is read once per document, on its
// first call, and kept up to date from storage.onChanged, so later calls
// cost no storage round trip.
'use strict';

globalThis.SentienceTrust = (() => {
  const KEY = SentienceProtocol.STORAGE.TRUSTED_ORIGINS;
  // storage.local: the managed policy's list as the service worker last read it.
  const MIRROR_KEY = SentienceProtocol.STORAGE.MANAGED_TRUSTED_ORIGINS;
  // This document's origin, as the browser enforces it (inherited by
  // about:blank and srcdoc documents, "null" for sandboxed and data:
  // documents, which no allow-list entry can name).
  const ORIGIN = self.origin;
  /** @type {string[]} */
  let local = [];

  /**
   * Origins of a stored list, normalised (`new URL(o).origin`); junk dropped.
   * @param {unknown} list
   * @returns {string[]}
   */
  function origins(list) {
    if (!Array.isArray(list)) return [];
    const out = [];
    for (const o of list) {
      if (typeof o !== 'string') continue;
      try {
        const origin = new URL(o.trim()).origin;
        if (origin !== 'null') out.push(origin);
      } catch (e) {
        // not a URL: ignored
      }
    }
    return out;
  }

  /**
   * @param {chrome.storage.StorageArea} area
   * @param {string} [key]
   * @returns {Promise<string[]>}
   */
  const read = (area, key = KEY) =>
    area.get(key).then(
      (items) => origins(items && items[key]),
      () => [], // no policy (or managed storage unavailable)
    );
  // The first read of managed storage in a browser session waits for the
  // policy service: 1–2 s on Linux (measured), which every page's first
  // call would pay. So the service worker mirrors the policy's list into
  // storage.local (extension/policy-mirror.js), and until this document's
  // own read of the policy arrives, the mirror decides — in one direction
  // only: an origin the mirror does not list gets the page scope at once
  // (an origin added to the policy while the browser was closed gets the
  // full scope once the policy is read, within seconds of the browser's
  // start); one it lists still waits for the policy itself, so an origin
  // taken off the policy never gets the full scope from a stale mirror.
  /** @type {string[] | null} */
  let managed = null; // null: the policy not read yet
  /** @type {string[]} */
  let mirror = [];
  // Read on this document's first call, not at document_start: a page that
  // never calls the API never reads the allow-list (docs/benchmarks.md
  // "What being installed costs"); the bridge starts the reads while the
  // runtime loads.
  /** @type {{local: Promise<void>, managed: Promise<void>} | null} */
  let reads = null;
  function startReads() {
    if (reads) return reads;
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && changes[KEY]) local = origins(changes[KEY].newValue);
      if (area === 'local' && changes[MIRROR_KEY]) mirror = origins(changes[MIRROR_KEY].newValue);
      if (area === 'managed' && changes[KEY]) managed = origins(changes[KEY].newValue);
    });
    reads = {
      local: Promise.all([read(chrome.storage.local), read(chrome.storage.local, MIRROR_KEY)]).then(([l, m]) => {
        local = l;
        mirror = m;
      }),
      managed: (chrome.storage.managed ? read(chrome.storage.managed) : Promise.resolve([])).then((m) => {
        managed = m;
      }),
    };
    return reads;
  }

  /** Whether page scripts of this document get the full scope. */
  async function pageTrusted() {
    if (ORIGIN === 'null') return false;
    const { local: localReady, managed: managedReady } = startReads();
    await localReady;
    if (local.includes(ORIGIN)) return true;
    if (managed === null) {
      if (!mirror.includes(ORIGIN)) return false;
      await managedReady;
    }
    return managed !== null && managed.includes(ORIGIN);
  }

  return { pageTrusted, startReads, ORIGIN, KEY };
})();
