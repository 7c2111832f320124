// @ts-check
// The tabs the user shared with an agent (docs/mcp.md "Your own Chrome"):
// the only tabs the MCP link (link.js) may name, list or touch. Kept in
// storage.session, so sharing ends with the browser session. While the
// agent is connected, each shared tab shows it: the icon's badge on that
// tab, and a banner in the page (banner.js, injected after protocol.js:
// before the first call a document holds only a part of the protocol,
// content/start-protocol.js) with a button to stop sharing.
// A tab opened from a shared tab (a link with target=_blank, window.open)
// is shared too: it is where the agent's click led.
'use strict';

globalThis.SentienceMcpTabs = (() => {
  const P = SentienceProtocol;
  const KEY = P.STORAGE.MCP_SHARED;
  const BADGE = { text: 'AI', color: '#7c3aed' };
  let connected = false;

  /** @returns {Promise<number[]>} */
  async function ids() {
    const got = await chrome.storage.session.get(KEY);
    const list = got[KEY];
    return Array.isArray(list) ? list.filter(Number.isInteger) : [];
  }

  /** @param {number[]} list */
  async function save(list) {
    await chrome.storage.session.set({ [KEY]: Array.from(new Set(list)) });
  }

  /** @param {number} tabId */
  async function isShared(tabId) {
    return (await ids()).includes(tabId);
  }

  /**
   * Shows (or hides) that an agent may use this tab: badge and banner.
   * @param {number} tabId
   * @param {boolean} on
   */
  async function mark(tabId, on) {
    try {
      if (on) {
        await chrome.action.setBadgeText({ tabId, text: BADGE.text });
        await chrome.action.setBadgeBackgroundColor({ tabId, color: BADGE.color });
        await chrome.action.setTitle({ tabId, title: 'Sentience: an AI agent can see and use this tab' });
        await chrome.scripting.executeScript({ target: { tabId }, files: ['extension/protocol.js', 'extension/mcp/banner.js'] });
      } else {
        // null: back to the icon's global badge (agent runs).
        await chrome.action.setBadgeText({ tabId, text: /** @type {any} */ (null) });
        await chrome.action.setTitle({ tabId, title: 'Sentience' });
      }
      await chrome.tabs.sendMessage(tabId, { type: P.MSG.MCP_BANNER, on }, { frameId: 0 });
    } catch (e) {
      // A closed tab, or a page extensions may not touch (chrome://): nothing to show there.
    }
  }

  /**
   * @param {number} tabId
   * @param {boolean} shared
   */
  async function share(tabId, shared) {
    const list = await ids();
    const next = shared ? [...list, tabId] : list.filter((id) => id !== tabId);
    await save(next);
    await mark(tabId, shared && connected);
  }

  /**
   * The shared tabs that still exist, as the agent sees them.
   * @returns {Promise<{id: number, url: string, title: string}[]>}
   */
  async function list() {
    const out = [];
    const alive = [];
    for (const id of await ids()) {
      try {
        const t = await chrome.tabs.get(id);
        out.push({ id, url: t.url || t.pendingUrl || '', title: t.title || '' });
        alive.push(id);
      } catch (e) {
        // Closed meanwhile.
      }
    }
    await save(alive);
    return out;
  }

  /**
   * The link's state changed: badges and banners follow it.
   * @param {boolean} on
   */
  async function setConnected(on) {
    connected = on;
    for (const id of await ids()) await mark(id, on);
  }

  chrome.tabs.onRemoved.addListener((tabId) => {
    ids().then((list) => (list.includes(tabId) ? save(list.filter((id) => id !== tabId)) : undefined));
  });
  chrome.tabs.onCreated.addListener((tab) => {
    if (tab.id === undefined || tab.openerTabId === undefined) return;
    const child = tab.id;
    isShared(tab.openerTabId).then((yes) => (yes ? share(child, true) : undefined));
  });
  // A new document in a shared tab gets the banner again.
  chrome.tabs.onUpdated.addListener((tabId, info) => {
    if (info.status !== 'complete' || !connected) return;
    isShared(tabId).then((yes) => (yes ? mark(tabId, true) : undefined));
  });

  return { ids, isShared, share, list, setConnected, isConnected: () => connected };
})();
