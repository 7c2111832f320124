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
// (extension/managed-schema.json). It is read once per document and kept up
// to date from storage.onChanged, so a call costs no storage round trip.
'use strict';

globalThis.SentienceTrust = (() => {
  const KEY = SentienceProtocol.STORAGE.TRUSTED_ORIGINS;
  // This document's origin, as the browser enforces it (inherited by
  // about:blank and srcdoc documents, "null" for sandboxed and data:
  // documents, which no allow-list entry can name).
  const ORIGIN = self.origin;
  let local = [];
  let managed = [];

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

  const read = (area) =>
    area.get(KEY).then(
      (items) => origins(items && items[KEY]),
      () => [], // no policy (or managed storage unavailable)
    );
  const ready = Promise.all([read(chrome.storage.local), chrome.storage.managed ? read(chrome.storage.managed) : []]).then(([l, m]) => {
    local = l;
    managed = m;
  });

  chrome.storage.onChanged.addListener((changes, area) => {
    if (!changes[KEY]) return;
    if (area === 'local') local = origins(changes[KEY].newValue);
    else if (area === 'managed') managed = origins(changes[KEY].newValue);
  });

  /** Whether page scripts of this document get the full scope (waits for the first read). */
  async function pageTrusted() {
    await ready;
    return ORIGIN !== 'null' && (local.includes(ORIGIN) || managed.includes(ORIGIN));
  }

  return { pageTrusted, ORIGIN, KEY };
})();
