// @ts-check
// The agent server at a glance: reachable or not (the address, the error
// in words, what to do), which engine decides (the built-in planner or an
// LLM and its model), its version. Checked when the panel opens, when the
// settings change, when the panel is shown again, and every few seconds
// (more often while the server is down, so a server that starts is seen
// at once). The check is the service worker's (run/api-client.js
// `status`), bounded by HEALTH_TIMEOUT_MS.
'use strict';

globalThis.SentienceServerStatus = (() => {
  const { MSG, STORAGE, DEFAULT_SETTINGS } = SentienceProtocol;
  const U = SentiencePanelUtil;
  const POLL_DOWN_MS = 2000;
  const POLL_UP_MS = 15000;

  /** @type {SentienceServerStatus | null} */
  let current = null;
  /** @type {Set<(status: SentienceServerStatus) => void>} */
  const listeners = new Set();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let checking = /** @type {Promise<SentienceServerStatus> | null} */ (null);
  let queued = /** @type {Promise<SentienceServerStatus> | null} */ (null);

  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

  async function settings() {
    const { [STORAGE.SETTINGS]: s } = await chrome.storage.local.get(STORAGE.SETTINGS);
    return { ...DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (s || {}) };
  }

  /** @param {SentienceServerStatus} st */
  function draw(st) {
    const box = $('server');
    box.className = `server ${st.ok ? 'up' : 'down'}`;
    if (st.ok) {
      const h = st.health;
      $('server-state').textContent = `Agent server connected · ${U.decider(h)}`;
      $('server-detail').textContent = `${st.url}${h.version ? ` · version ${h.version}` : ''}`;
      $('server-help').hidden = true;
    } else {
      $('server-state').textContent = st.problem === 'key' ? 'The agent server needs a key' : 'Agent server not reachable';
      $('server-detail').textContent = `${st.error.charAt(0).toUpperCase()}${st.error.slice(1)}.`;
      SentienceSettingsForm.showText($('server-hint'), st.hint);
      $('server-help').hidden = false;
      // `sentience serve` helps only when nothing answers.
      const serve = /** @type {HTMLElement} */ ($('server-help').querySelector('.command'));
      serve.hidden = st.problem !== 'unreachable' && st.problem !== 'timeout';
    }
  }

  /**
   * Checks (one check at a time: a call during one gets the next, which
   * reads the settings as they are then), draws, tells listeners, plans
   * the next.
   * @returns {Promise<SentienceServerStatus>}
   */
  function check() {
    if (!checking) return run();
    if (!queued) {
      queued = checking.then(() => {
        queued = null;
        return run();
      });
    }
    return queued;
  }

  /** @returns {Promise<SentienceServerStatus>} */
  function run() {
    clearTimeout(timer);
    checking = (async () => {
      const s = await settings();
      /** @type {SentienceServerStatus} */
      let st;
      try {
        st = await U.send({ type: MSG.TEST_CONNECTION, serverUrl: s.serverUrl, apiKey: s.apiKey });
      } catch (e) {
        st = { ok: false, url: s.serverUrl, problem: 'unreachable', error: `the extension could not check: ${e instanceof Error ? e.message : e}`, hint: 'Reload the extension, then try again.' };
      }
      current = st;
      draw(st);
      for (const fn of listeners) fn(st);
      return st;
    })().finally(() => {
      checking = null;
      clearTimeout(timer);
      timer = setTimeout(check, current && current.ok ? POLL_UP_MS : POLL_DOWN_MS);
    });
    return checking;
  }

  function start() {
    $('server-retry').addEventListener('click', () => check());
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && changes[STORAGE.SETTINGS]) check();
    });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
    return check();
  }

  return {
    start,
    check,
    /** The last status (null before the first check). */
    current: () => current,
    /** @param {(status: SentienceServerStatus) => void} fn */
    subscribe: (fn) => listeners.add(fn),
  };
})();
