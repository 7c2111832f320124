// @ts-check
// What every part of the side panel uses: messages to the service worker,
// the tab a run acts on, and the words for times, sites and states.
'use strict';

globalThis.SentiencePanelUtil = (() => {
  /**
   * A UI message to the service worker (protocol.js validateUiMessage);
   * rejects with its error.
   * @param {{type: string, [key: string]: unknown}} msg
   * @returns {Promise<any>}
   */
  function send(msg) {
    return chrome.runtime.sendMessage(msg).then((res) => {
      if (res && res.error && !('ok' in res)) throw new Error(res.error);
      return res;
    });
  }

  // The tab a run acts on: the active tab of the panel's window, or ?tab=ID
  // when the panel is opened as a tab of its own (tests, docs' screenshots).
  const fixedTab = Number(new URLSearchParams(location.search).get('tab'));

  /** @returns {Promise<chrome.tabs.Tab | null>} */
  async function targetTab() {
    try {
      if (Number.isInteger(fixedTab) && fixedTab > 0) return await chrome.tabs.get(fixedTab);
      const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
      return tab || null;
    } catch (e) {
      return null;
    }
  }

  /**
   * "just now", "5 min ago", "3 h ago", or the date.
   * @param {number} at
   * @param {number} [now]
   */
  function ago(at, now = Date.now()) {
    const s = Math.max(0, Math.round((now - at) / 1000));
    if (s < 45) return 'just now';
    if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
    if (s < 86400) return `${Math.round(s / 3600)} h ago`;
    return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  }

  /** @param {number} ms */
  function duration(ms) {
    if (ms < 1000) return `${(ms / 1000).toFixed(1)} s`;
    if (ms < 60000) return `${Math.round(ms / 100) / 10} s`;
    return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
  }

  /** @param {string | undefined} url */
  function site(url) {
    if (!url) return '';
    try {
      const u = new URL(url);
      return /^https?:$/.test(u.protocol) ? u.host : u.protocol.replace(':', '');
    } catch (e) {
      return '';
    }
  }

  /**
   * The chip of a run: its words and the class that colours it.
   * @param {SentienceRun} run
   * @returns {{text: string, kind: string}}
   */
  function runState(run) {
    if (run.paused && !SentienceProtocol.TERMINAL_STATUSES.includes(run.status)) return { text: 'Paused', kind: 'paused' };
    /** @type {Record<string, string>} */
    const words = { created: 'Starting', running: 'Running', waiting_user: 'Needs your answer', completed: 'Done', error: 'Failed', cancelled: 'Stopped' };
    return { text: words[run.status] || run.status, kind: run.status };
  }

  /**
   * Which engine decides, as /health says it.
   * @param {{model: string, policy?: string}} health
   */
  function decider(health) {
    return health.policy === 'llm' || (health.model && health.model !== 'embedded') ? `LLM ${health.model}` : 'built-in planner';
  }

  /**
   * Copies `text` and says so to screen readers and on the button.
   * @param {string} text
   * @param {HTMLElement} [button]
   */
  async function copy(text, button) {
    const said = document.getElementById('copied');
    try {
      await navigator.clipboard.writeText(text);
      if (said) said.textContent = 'Copied to the clipboard.';
      if (button) {
        // The words to go back to, kept from the first click (a second
        // click within the pause would otherwise keep "Copied" for good).
        // An aria-label changes with the text, so the name heard still
        // holds the words shown (WCAG 2.5.3).
        if (button.dataset.label === undefined) button.dataset.label = button.textContent || '';
        const aria = button.dataset.aria ?? button.getAttribute('aria-label');
        if (aria !== null) button.dataset.aria = aria;
        button.textContent = 'Copied';
        if (aria !== null) button.setAttribute('aria-label', 'Copied');
        clearTimeout(Number(button.dataset.timer));
        button.dataset.timer = String(
          setTimeout(() => {
            button.textContent = button.dataset.label || '';
            if (aria !== null) button.setAttribute('aria-label', aria);
          }, 1500),
        );
      }
    } catch (e) {
      if (said) said.textContent = 'Could not copy: select the text and copy it.';
    }
  }

  return { send, targetTab, ago, duration, site, runState, decider, copy };
})();
