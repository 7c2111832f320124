// @ts-check
// The MCP link (docs/mcp.md "The extension link"): once the user pasted the
// pairing code `sentience mcp --browser extension` printed, the service
// worker connects out to that server's loopback WebSocket, proves the
// pairing with the token, and answers the server's requests — only for the
// tabs the user shared (shared-tabs.js): any other tab id is answered as if
// it did not exist. Snapshots and actions run through our content scripts
// (SentienceTools.call, the full scope), screenshots through
// captureVisibleTab; no chrome.debugger. The pairing ({port, token}) lives
// in storage.local, which no web page can read; it is set and cleared only
// by the extension's own pages (the UI messages of protocol.js).
// The wire's shapes: crates/mcp/src/backend/extension/wire.rs.
'use strict';

globalThis.SentienceMcpLink = (() => {
  const P = SentienceProtocol;
  const M = P.MCP;
  const T = M.TYPES;
  const LOAD_TIMEOUT_MS = 30000;
  /** @type {WebSocket | null} */
  let socket = null;
  /** 'off' (not paired) | 'connecting' | 'connected' | 'waiting' (no server) | 'refused' (wrong code) */
  let state = 'off';
  let retryMs = 1000;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let retryTimer = null;

  /** @returns {Promise<{port: number, token: string} | null>} */
  async function pairing() {
    const got = await chrome.storage.local.get(P.STORAGE.MCP_PAIRING);
    /** @type {any} */
    const p = got[P.STORAGE.MCP_PAIRING];
    return p && Number.isInteger(p.port) && typeof p.token === 'string' ? { port: p.port, token: p.token } : null;
  }

  /** @param {string} next */
  function setState(next) {
    state = next;
    SentienceMcpTabs.setConnected(next === 'connected');
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 30000);
  }

  /** Connects when paired and not connected (idempotent). */
  async function connect() {
    const p = await pairing();
    if (!p) {
      setState('off');
      return;
    }
    if (socket || state === 'refused') return;
    setState(state === 'waiting' ? 'waiting' : 'connecting');
    const ws = new WebSocket(`ws://127.0.0.1:${p.port}${M.PATH}`);
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ type: T.HELLO, token: p.token, version: chrome.runtime.getManifest().version }));
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch (e) {
        return;
      }
      if (msg.type === T.WELCOME) {
        retryMs = 1000;
        setState('connected');
      } else if (msg.type === T.PING) {
        ws.send(JSON.stringify({ type: T.PONG }));
      } else if (msg.type === T.REQUEST) {
        answer(msg).then((reply) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(reply));
        });
      }
    };
    ws.onclose = (ev) => {
      if (socket === ws) socket = null;
      if (ev.code === M.CLOSE_BAD_TOKEN) {
        setState('refused');
        return;
      }
      if (state !== 'off') {
        setState('waiting');
        scheduleRetry();
      }
    };
  }

  function disconnect() {
    const ws = socket;
    socket = null;
    if (ws) ws.close(1000, 'unpaired');
  }

  // ------------------------------------------------------------- requests
  /** @param {unknown} tabId */
  async function sharedTab(tabId) {
    if (!Number.isInteger(tabId) || !(await SentienceMcpTabs.isShared(/** @type {number} */ (tabId)))) {
      throw new Error(`no tab: ${tabId} (browser_tabs lists the tabs you may use)`);
    }
    return chrome.tabs.get(/** @type {number} */ (tabId));
  }

  /** @param {unknown} url */
  function webUrl(url) {
    if (typeof url !== 'string' || !/^(https?|file):\/\//i.test(url)) throw new Error(`only http, https and file URLs can be opened: ${url}`);
    return url;
  }

  /**
   * Waits until the tab has loaded and our content script answers.
   * @param {number} tabId
   */
  async function loaded(tabId) {
    const until = Date.now() + LOAD_TIMEOUT_MS;
    await new Promise((r) => setTimeout(r, 100));
    while (Date.now() < until) {
      const tab = await chrome.tabs.get(tabId);
      if (tab.status === 'complete') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await SentienceTools.waitReady(tabId);
    const tab = await chrome.tabs.get(tabId);
    return { url: tab.url || '' };
  }

  // Operations that act on an element: shown to the user first.
  const ACTIONS = new Set(['click', 'type', 'select', 'hover']);

  /** @type {Record<string, (p: any) => Promise<any>>} */
  const METHODS = {
    tabs: () => SentienceMcpTabs.list(),
    open_tab: async (p) => {
      const url = p.url ? webUrl(p.url) : 'about:blank';
      const shared = await SentienceMcpTabs.ids();
      let windowId;
      for (const id of shared) {
        try {
          windowId = (await chrome.tabs.get(id)).windowId;
          break;
        } catch (e) {
          // closed
        }
      }
      const tab = await chrome.tabs.create({ url, active: false, ...(windowId !== undefined ? { windowId } : {}) });
      if (tab.id === undefined) throw new Error('the browser opened no tab');
      await SentienceMcpTabs.share(tab.id, true);
      if (p.url) await loaded(tab.id);
      const now = await chrome.tabs.get(tab.id);
      return { id: tab.id, url: now.url || now.pendingUrl || url, title: now.title || '' };
    },
    close_tab: async (p) => {
      const tab = await sharedTab(p.tabId);
      await chrome.tabs.remove(/** @type {number} */ (tab.id));
      return {};
    },
    navigate: async (p) => {
      const tab = await sharedTab(p.tabId);
      await chrome.tabs.update(/** @type {number} */ (tab.id), { url: webUrl(p.url) });
      return loaded(/** @type {number} */ (tab.id));
    },
    back: async (p) => {
      const tab = await sharedTab(p.tabId);
      await chrome.tabs.goBack(/** @type {number} */ (tab.id));
      return loaded(/** @type {number} */ (tab.id));
    },
    call: async (p) => {
      const tab = await sharedTab(p.tabId);
      const tabId = /** @type {number} */ (tab.id);
      if (!M.CALL_OPS.includes(p.op)) throw new Error(`unknown operation ${p.op}`);
      const args = p.args && typeof p.args === 'object' ? p.args : {};
      try {
        if (ACTIONS.has(p.op) && Number.isInteger(args.id)) await SentienceTools.call(tabId, 'highlight', { id: args.id, label: p.op });
        return await SentienceTools.call(tabId, p.op, args);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        // The page went away while the action ran: it navigated.
        if (/message port closed|back\/forward cache/i.test(message)) throw new Error(`navigated: ${message}`);
        throw e;
      }
    },
    page_state: async (p) => {
      const tab = await sharedTab(p.tabId);
      const tabId = /** @type {number} */ (tab.id);
      try {
        const pong = await Promise.race([SentienceTools.call(tabId, 'ping', {}), new Promise((r) => setTimeout(() => r(null), 2000))]);
        if (!pong || typeof pong.doc !== 'string') return null;
        return { doc: pong.doc, url: pong.url, state: pong.state, loading: tab.status === 'loading' };
      } catch (e) {
        return null; // no content script (yet)
      }
    },
    screenshot: async (p) => {
      const tab = await sharedTab(p.tabId);
      // Only the visible tab of a window can be captured: the shared tab
      // is brought to the front of its window first.
      if (!tab.active) await chrome.tabs.update(/** @type {number} */ (tab.id), { active: true });
      const dataUrl = await /** @type {any} */ (globalThis).sentienceCapture(tab.windowId, { format: 'png' });
      return { dataUrl };
    },
  };

  /** @param {any} msg */
  async function answer(msg) {
    const id = msg.id;
    try {
      if (!Object.prototype.hasOwnProperty.call(METHODS, msg.method)) throw new Error(`unknown method ${msg.method}`);
      const value = await METHODS[msg.method](msg.params || {});
      return { type: T.RESULT, id, ok: true, value: value === undefined ? null : value };
    } catch (e) {
      return { type: T.RESULT, id, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  // ------------------------------------------------------- the UI's side
  /** @param {string} code */
  async function pair(code) {
    const m = M.CODE_RE.exec(code.trim());
    if (!m) throw new Error('not a pairing code');
    await chrome.storage.local.set({ [P.STORAGE.MCP_PAIRING]: { port: Number(m[1]), token: m[2] } });
    disconnect();
    state = 'connecting';
    retryMs = 1000;
    await connect();
  }

  async function unpair() {
    await chrome.storage.local.remove(P.STORAGE.MCP_PAIRING);
    state = 'off';
    disconnect();
    // Badges and banners off, then nothing is shared any more.
    await SentienceMcpTabs.setConnected(false);
    await chrome.storage.session.remove(P.STORAGE.MCP_SHARED);
  }

  async function status() {
    const p = await pairing();
    return { paired: Boolean(p), port: p ? p.port : null, state, shared: await SentienceMcpTabs.ids() };
  }

  chrome.alarms.create(M.ALARM, { periodInMinutes: 0.5 });
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === M.ALARM) connect();
  });
  connect();

  return { pair, unpair, status, connect };
})();
