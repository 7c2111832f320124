// @ts-check
// Executes the server's tools (ToolName of docs/contracts/run-api.md §11) in the run's tab and
// returns a ToolResult (docs/contracts/run-api.md §11). Element ids map to the last snapshot's
// elements through the content script's registry: a stale id fails
// cleanly, it never acts on another element.
'use strict';

globalThis.SentienceTools = (() => {
  const NAV_TIMEOUT_MS = 30000;
  // The longest wait one observe may ask for (a task's "wait 2 minutes" is
  // several observes).
  const MAX_WAIT_MS = 120000;
  // A press's `repeat` is capped: a slider's whole range, not a flood.
  const MAX_REPEAT = 500;
  // DOM quiet before a snapshot. An action waits only while the page
  // reacts (extension/content/actions.js SETTLE), briefly; the run loop's
  // next step wants a page at rest, so it waits for this much quiet.
  const QUIET_MS = 120;
  const READY_TIMEOUT_MS = 10000;

  /**
   * Runs operation `op` of the window.sentience API (bridge.js) in the tab's
   * top frame; resolves to what the page API would.
   * @param {number} tabId
   * @param {SentienceOp} op
   * @param {unknown} args
   * @param {{path?: 'service_worker'}} [via]
   * @returns {Promise<any>}
   */
  function call(tabId, op, args, via) {
    return SentienceDocumentMessages.send(tabId, { type: SentienceProtocol.MSG.CALL, op, args, via }, { frameId: 0 }).then((reply) =>
      reply && reply.json !== undefined ? JSON.parse(reply.json) : reply && reply.value,
    );
  }

  /**
   * Whether the tab's content script answered within `timeoutMs` (it
   * answers once the new document has loaded it).
   * @param {number} tabId
   * @param {number} [timeoutMs]
   */
  async function waitReady(tabId, timeoutMs = READY_TIMEOUT_MS) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      try {
        const tab = await chrome.tabs.get(tabId);
        if (tab.status === 'complete') {
          const pong = await call(tabId, 'ping', {});
          if (pong && pong.ready) return true;
        }
      } catch (e) {
        // No receiver yet (the page is loading): try again.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  /**
   * Snapshot for the server: the snapshot object (docs/contracts/snapshot.md
   * §2) plus title and visible text.
   * @param {number} tabId
   */
  async function observe(tabId) {
    await waitReady(tabId);
    // Waits while the DOM is changing, so a page still rendering after a
    // click (an SPA's next view) is not sent half built; a page quiet for
    // QUIET_MS already is taken at once,
    // and one that never settles (tickers, animations) costs at most the cap.
    const snap = await call(tabId, 'snapshot', { limit: 100, wait_for_stable: { quiet_ms: QUIET_MS, timeout_ms: 1500 } });
    if (!snap || snap.status !== 'success') throw new Error(`snapshot failed: ${snap ? snap.error : 'no answer from the page'}`);
    /** @type {{id: number}[]} */
    const listed = snap.elements;
    const info = await call(tabId, 'page_info', { ids: listed.map((e) => e.id) });
    const elements = listed.map((e) => ({ ...e, ...(info.elements[e.id] || {}) }));
    return { ...snap, elements, title: info.title, visibleText: info.visibleText };
  }

  /**
   * @param {any} params
   * @returns {number | null}
   */
  function elementId(params) {
    const raw = params && params.id;
    // No id (a page scroll) is not element 0.
    if (raw === undefined || raw === null || raw === '') return null;
    const n = typeof raw === 'number' ? raw : Number(String(raw ?? '').replace(/^agent-/, ''));
    return Number.isInteger(n) && n >= 0 ? n : null;
  }

  // What is stored and shown in place of a value typed into a password
  // field (the value itself goes to the page only).
  const MASK = '••••••••';

  /**
   * A tool's parameters as they may be stored and shown: a value typed
   * into a password field (the snapshot's element) is masked.
   * @param {{name: string, parameters?: any} | null} tool
   * @param {SentienceRunElement | undefined} element
   * @returns {{params: any, masked: boolean}}
   */
  function maskedParams(tool, element) {
    const params = { ...((tool && tool.parameters) || {}) };
    if (!tool || tool.name !== 'type' || !element || !element.password) return { params, masked: false };
    for (const key of ['text', 'value']) if (params[key] !== undefined) params[key] = MASK;
    return { params, masked: true };
  }

  /**
   * The ToolResult of an action's answer.
   * @param {any} r
   * @param {string} verb
   */
  function result(r, verb) {
    if (!r) return { success: false, error: `${verb}: no answer from the page` };
    if (!r.success) return { success: false, error: r.error };
    return { success: true, message: `${verb} (${r.outcome === 'navigated' ? 'page navigated' : r.outcome === 'dom_changed' ? 'page changed' : 'no visible change'})`, data: { outcome: r.outcome } };
  }

  /**
   * @param {number} tabId
   * @param {unknown} url
   */
  async function navigate(tabId, url) {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return { success: false, error: `navigate: not an http(s) URL: ${url}` };
    await chrome.tabs.update(tabId, { url });
    const until = Date.now() + NAV_TIMEOUT_MS;
    await new Promise((r) => setTimeout(r, 200));
    while (Date.now() < until) {
      const tab = await chrome.tabs.get(tabId);
      if (tab.status === 'complete') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const ready = await waitReady(tabId);
    return ready ? { success: true, message: `Navigated to ${url}` } : { success: false, error: `navigate: ${url} did not finish loading within ${NAV_TIMEOUT_MS / 1000} s` };
  }

  /**
   * An action on an element of the last snapshot, highlighted first so
   * people see what the agent acts on.
   * @param {number} tabId
   * @param {'click' | 'type' | 'scroll'} name
   * @param {any} p the tool's parameters
   * @param {string} verb
   */
  async function onElement(tabId, name, p, verb) {
    const id = elementId(p);
    if (id === null) return { success: false, error: `${name}: missing or invalid element id ${JSON.stringify(p.id)}` };
    await call(tabId, 'highlight', { id, label: name });
    const dy = (p.direction === 'up' ? -1 : 1) * (Number(p.amount) || 600);
    const args = name === 'type' ? { id, text: String(p.text ?? p.value ?? '') } : name === 'scroll' ? { id, dy, within: p.within === true } : { id };
    const r = await call(tabId, name, args);
    if (r && r.outcome === 'navigated') await waitReady(tabId);
    return result(r, verb);
  }

  /**
   * The server's tools (ToolName of docs/contracts/run-api.md §11, docs/contracts/run-api.md), by
   * name; finish and ask_user are the run loop's own.
   * @type {Record<string, (tabId: number, p: any) => Promise<{success: boolean, message?: string, error?: string, data?: any}>>}
   */
  const TOOLS = {
    // `waitMs`: a wait the task asked for, or for a page still changing.
    observe: async (_tabId, p) => {
      const ms = Math.min(Math.max(Number(p.waitMs) || 0, 0), MAX_WAIT_MS);
      if (ms) await new Promise((r) => setTimeout(r, ms));
      return { success: true, message: ms ? `Waited ${ms} ms` : 'Observed' };
    },
    navigate: (tabId, p) => navigate(tabId, p.url),
    click: (tabId, p) => onElement(tabId, 'click', p, 'Clicked'),
    type: (tabId, p) => onElement(tabId, 'type', p, 'Typed'),
    scroll: async (tabId, p) => {
      // No element id: the page scrolls.
      if (elementId(p) === null) return result(await call(tabId, 'scroll', { dx: Number(p.dx) || 0, dy: Number(p.dy ?? (p.direction === 'up' ? -600 : 600)) || 0 }), 'Scrolled');
      return onElement(tabId, 'scroll', p, 'Scrolled');
    },
    press: async (tabId, p) => {
      // The key goes to the element named (the field just filled), focused first.
      const id = elementId(p);
      if (id !== null) await call(tabId, 'click', { id });
      // `repeat`: the key pressed that many times (a slider's arrow key to
      // its value); each press is its own keydown/keyup, as a held key.
      const times = Math.min(Math.max(Math.trunc(Number(p.repeat)) || 1, 1), MAX_REPEAT);
      let r;
      for (let i = 0; i < times; i++) {
        r = await call(tabId, 'press', { key: String(p.key ?? 'Enter') });
        if (!r || r.success === false || r.outcome === 'navigated') break;
      }
      if (r && r.outcome === 'navigated') await waitReady(tabId);
      return result(r, `Pressed ${p.key ?? 'Enter'}${times > 1 ? ` ×${times}` : ''}`);
    },
  };

  /**
   * Runs one tool; never throws (failures are ToolResults).
   * @param {number} tabId
   * @param {{name: string, parameters?: any}} tool
   */
  async function execute(tabId, tool) {
    const p = tool.parameters || {};
    try {
      if (!Object.prototype.hasOwnProperty.call(TOOLS, tool.name)) return { success: false, error: `unknown tool ${tool.name}` };
      return await TOOLS[tool.name](tabId, p);
    } catch (e) {
      return { success: false, error: `${tool.name} failed: ${e instanceof Error ? e.message : e}` };
    }
  }

  return { execute, observe, waitReady, call, elementId, maskedParams, MASK };
})();
