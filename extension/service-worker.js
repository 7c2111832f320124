// @ts-check
// The service worker: it loads the content runtime into a document on its
// first call of the API (the document holds only the bridge until then),
// it is the CSP-immune home of the WebAssembly engine (the extension's own
// CSP allows 'wasm-unsafe-eval' whatever the page's; also a document's
// first snapshots while its own engine loads: content/engine.js), and the
// only place that may capture screenshots.
//
// Classic (non-module) worker so importScripts can load the no-modules
// wasm-bindgen glue at startup, as service workers require.
'use strict';

// The walker ↔ engine wire's names (generated from crates/snapshot-core/src/raw.rs) first: frame-relay.js reads them.
importScripts('../pkg/sentience_wasm.js', '../pkg/sentience_query.js', 'protocol.js', 'content/wire.js', 'overlay-palette.js', 'annotate.js', 'document-messages.js', 'frame-liveness.js', 'frame-relay.js', 'policy-mirror.js', 'runtime-preload.js', 'run/api-client.js', 'run/tools.js', 'run/history.js', 'run/approval.js', 'run/run-record.js', 'run/run-loop.js', 'mcp/shared-tabs.js', 'mcp/link.js');

// Message types, port names and limits: extension/protocol.js.
const { MSG, PORT_MSG, COMPUTE_PORT, CHUNK, CONTENT_RUNTIME, STORAGE } = SentienceProtocol;

// The toolbar icon (and its keyboard shortcut, the manifest's
// `_execute_action` command) opens the side panel, where people use the
// extension (extension/sidepanel/).
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});

/** @type {Promise<typeof SentienceEngine> | null} */
let engine = null;
function loadEngine() {
  if (!engine) engine = SentienceEngine({ module_or_path: chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm') }).then(() => SentienceEngine);
  return engine;
}
// Loaded as the worker starts: a document's first snapshot is computed
// here while the document's own engine loads (content/engine.js).
loadEngine().catch(() => {});

// ------------------------------------------------------ the content runtime
// A document's first call of the API (content/bridge.js `runtime`): the
// runtime is injected into that document alone (its documentId: never a
// document that replaced it), and a frame with iframes learns which failed
// to load.
/**
 * @param {any} msg
 * @param {chrome.runtime.MessageSender} sender
 */
async function loadRuntime(msg, sender) {
  const tabId = sender.tab && sender.tab.id;
  if (tabId === undefined || sender.frameId === undefined) return { error: 'not a tab' };
  const target = sender.documentId ? { tabId, documentIds: [sender.documentId] } : { tabId, frameIds: [sender.frameId] };
  const [, dead] = await Promise.all([
    chrome.scripting.executeScript({ target, files: [CONTENT_RUNTIME], injectImmediately: true }),
    msg.frames === true ? SentienceFrameLiveness.deadChildren(tabId, sender.frameId) : [],
  ]);
  return { dead };
}

// One engine handle (src/lib.rs `Engine`: a page's diff history) per page
// number (below), for the last ENGINES_KEPT pages computed here, least
// recently used dropped first.
const ENGINES_KEPT = 4;
/** @type {Map<number, SentienceEngine.Engine>} */
const engines = new Map();
/**
 * @param {typeof SentienceEngine} wasm
 * @param {number} pageKey
 */
function engineFor(wasm, pageKey) {
  let e = engines.get(pageKey);
  if (e) engines.delete(pageKey);
  else e = new wasm.Engine('service_worker');
  engines.set(pageKey, e);
  for (const [key, old] of engines) {
    if (engines.size <= ENGINES_KEPT) break;
    engines.delete(key);
    old.free();
  }
  return e;
}

// The query language and LLM format (a separate module), compiled on first
// use: for pages whose CSP forbids WebAssembly in the content script.
/** @type {Promise<typeof SentienceQuery> | null} */
let queryModule = null;
function loadQueryModule() {
  if (!queryModule) queryModule = SentienceQuery({ module_or_path: chrome.runtime.getURL('pkg/sentience_query_bg.wasm') }).then(() => SentienceQuery);
  return queryModule;
}

// The query module's operations (MSG.QUERY's `op`): each answers with the
// module's JSON text.
/** @type {Record<string, (mod: any, msg: any) => string>} */
const QUERY_OPS = {
  query: (mod, msg) => mod.query_in(msg.snapshot, String(msg.query), msg.first === true),
  format: (mod, msg) => mod.format(msg.snapshot, Number(msg.max_tokens) >>> 0),
};

// Answers with the module's JSON text; the snapshot comes with every call
// (the worker may be stopped between calls, so it keeps nothing).
/** @param {any} msg */
async function queryCall(msg) {
  try {
    const mod = await loadQueryModule();
    if (typeof msg.snapshot !== 'string') return JSON.stringify({ status: 'error', error: 'no snapshot given' });
    if (Object.prototype.hasOwnProperty.call(QUERY_OPS, msg.op)) return QUERY_OPS[msg.op](mod, msg);
    return JSON.stringify({ status: 'error', error: `unknown query operation ${msg.op}` });
  } catch (e) {
    return JSON.stringify({ status: 'error', error: `query module failed in the service worker: ${e instanceof Error ? e.message : e}` });
  }
}

// Raw page data arrives in chunks (a 50k-element page exceeds what one
// runtime message may carry); the answer goes back the same way.
// Each page's engine handle keeps its diff history (see
// crates/snapshot-core/src/diff.rs); pages are named by a number: one per
// document (tab, frame, documentId) this worker has computed for.
// Numbers are never reused; the map is bounded.
const pageNumbers = new Map();
let nextPageNumber = 1;
// Each scope of a document (extension/content/trust.js) has its own history,
// so a page script's diffs never compare with the extension's snapshots.
/**
 * @param {chrome.runtime.MessageSender} sender
 * @param {unknown} scope
 */
function pageNumber(sender, scope) {
  const key = `${sender.tab ? sender.tab.id : -1}:${sender.frameId ?? 0}:${sender.documentId || ''}:${scope === 'page' ? 'page' : 'full'}`;
  let n = pageNumbers.get(key);
  if (n === undefined) {
    if (pageNumbers.size >= 1000) pageNumbers.clear();
    n = nextPageNumber++;
    pageNumbers.set(key, n);
  }
  return n;
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== COMPUTE_PORT || !port.sender || port.sender.id !== chrome.runtime.id) {
    port.disconnect();
    return;
  }
  const sender = port.sender;
  /** @type {number[]} */
  let meta = [];
  let options = 'null';
  let frames = '';
  /** @type {Float64Array} */
  let tracking = new Float64Array(0);
  let pageKey = 0;
  /** @type {ArrayLike<number>[]} */
  const nums = [];
  /** @type {string[]} */
  const strs = [];
  /** @type {string[]} */
  const screenshot = [];
  /** @param {string} json */
  const send = (json, extra = {}) => {
    for (let i = 0; i < json.length; i += CHUNK) port.postMessage({ type: PORT_MSG.CHUNK, data: json.slice(i, i + CHUNK) });
    port.postMessage({ type: PORT_MSG.DONE, ...extra });
  };
  // One step per message type, in the order content/engine.js sends them.
  /** @type {Record<string, (msg: any) => void | Promise<void>>} */
  const steps = {
    [PORT_MSG.BEGIN]: (msg) => {
      meta = Array.isArray(msg.meta) ? msg.meta : [];
      options = String(msg.options);
      frames = typeof msg.frames === 'string' ? msg.frames : '';
      tracking = Float64Array.from(Array.isArray(msg.tracking) ? msg.tracking.slice(0, SentienceWire.TRACKING_LEN) : []);
      pageKey = pageNumber(sender, msg.scope);
    },
    [PORT_MSG.NUMS]: (msg) => {
      nums.push(msg.data);
    },
    [PORT_MSG.STRS]: (msg) => {
      strs.push(msg.data);
    },
    [PORT_MSG.END]: async () => {
      try {
        const wasm = await loadEngine();
        const flat = new Float64Array(nums.reduce((n, part) => n + part.length, 0));
        let at = 0;
        for (const part of nums) {
          flat.set(part, at);
          at += part.length;
        }
        // The walk (frames included), tracking (wire.js T_* columns) and
        // frame report, as they came.
        const handle = engineFor(wasm, pageKey);
        const json = handle.snapshot({ meta, nums: flat, strs: strs.join('') }, options, tracking, frames);
        const ok = handle.ok;
        send(json, { ok, awaitingScreenshot: ok && snapshotWantsScreenshot(options) });
      } catch (e) {
        send(JSON.stringify({ status: 'error', error: `engine failed in the service worker: ${e && /** @type {Error} */ (e).message}` }), { ok: false });
      }
    },
    // The screenshot of the snapshot just computed, in chunks; a null one ends it.
    [PORT_MSG.ATTACH]: async (msg) => {
      if (typeof msg.data === 'string') {
        screenshot.push(msg.data);
        return;
      }
      const wasm = await loadEngine();
      send(engineFor(wasm, pageKey).attach_screenshot(screenshot.join('')), { ok: true });
    },
  };
  port.onMessage.addListener((msg) => {
    if (msg && Object.prototype.hasOwnProperty.call(steps, msg.type)) return steps[msg.type](msg);
  });
});

/**
 * Whether the options ask for a screenshot (the engine then keeps the
 * snapshot for attach_screenshot); the engine validated them already.
 * @param {string} options
 */
function snapshotWantsScreenshot(options) {
  try {
    const o = JSON.parse(options);
    return Boolean(o && o.screenshot);
  } catch (e) {
    return false;
  }
}

// Chrome allows two captureVisibleTab calls per second per extension; an
// agent that asks for screenshots back to back waits for the quota instead
// of failing.
/**
 * @param {number} windowId
 * @param {chrome.extensionTypes.ImageDetails} opts
 * @returns {Promise<string>}
 */
async function capture(windowId, opts) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await chrome.tabs.captureVisibleTab(windowId, opts);
    } catch (e) {
      if (attempt >= 4 || !/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(e instanceof Error ? e.message : e))) throw e;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

// Screenshots: only for the top frame of the tab that is visible in its
// window, so a background tab can never capture whatever tab is in front.
/**
 * @param {any} msg {format, quality, annotate}
 * @param {chrome.runtime.MessageSender} sender
 */
async function screenshot(msg, sender) {
  const tab = sender.tab;
  if (!tab || tab.id === undefined || sender.frameId !== 0) return { error: 'screenshots are only available to the top frame of a tab' };
  const current = await chrome.tabs.get(tab.id);
  if (!current.active) return { error: 'the tab is not the visible tab of its window' };
  const format = msg.format === 'jpeg' ? 'jpeg' : 'png';
  const quality = format === 'jpeg' && Number.isInteger(msg.quality) && msg.quality >= 0 && msg.quality <= 100 ? msg.quality : undefined;
  /** @type {chrome.extensionTypes.ImageDetails} */
  const opts = { format };
  if (quality !== undefined) opts.quality = quality;
  try {
    if (!msg.annotate) return { dataUrl: await capture(current.windowId, opts) };
    // Annotated: capture losslessly, draw, then encode once as asked.
    const png = await capture(current.windowId, { format: 'png' });
    return { dataUrl: await SentienceAnnotate.draw(png, msg.annotate, format, quality) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

// For the extension's own callers (agent runs, tests): run an operation of
// the window.sentience API in a tab, e.g.
// sentienceCall(tabId, 'snapshot', {limit: 5}, {path: 'service_worker'}).
globalThis.sentienceCall = SentienceTools.call;
// Screenshots within Chrome's quota, for the MCP link (mcp/link.js).
globalThis.sentienceCapture = capture;

// ------------------------------------------------------------- messages
// Every runtime message this worker answers, by type (protocol.js MSG),
// with who may send it:
//   extension: any context of this extension;
//   tab:       our content scripts (a sender in a tab);
//   page:      the extension's own pages (side panel, options, and
//              the CLI through an extension page), never content scripts,
//              which share the page's renderer; checked by protocol.js
//              validateUiMessage() first.
/**
 * @typedef {object} Route
 * @property {'extension' | 'tab' | 'page'} from
 * @property {(msg: any, sender: chrome.runtime.MessageSender) => any} handle a value or a promise of the answer (undefined: none)
 * @property {(e: any) => any} [failure] the answer when `handle` throws or rejects
 */
/** @type {Record<string, Route>} */
const ROUTES = {
  [MSG.SCREENSHOT]: { from: 'extension', handle: screenshot },
  [MSG.QUERY]: { from: 'extension', handle: queryCall },
  [MSG.FRAME_CLAIM]: { from: 'tab', handle: SentienceFrameRelay.onClaim },
  [MSG.FRAME_WALK]: { from: 'tab', handle: SentienceFrameRelay.walkTree, failure: () => ({ reason: 'error' }) },
  [MSG.FRAME_CALL]: { from: 'tab', handle: SentienceFrameRelay.call, failure: (e) => ({ error: String(e) }) },
  [MSG.RUNTIME_LOAD]: { from: 'tab', handle: loadRuntime },
  [MSG.FRAMES_DEAD]: { from: 'tab', handle: async (msg, sender) => ({ urls: sender.tab && sender.tab.id !== undefined && sender.frameId !== undefined ? await SentienceFrameLiveness.deadChildren(sender.tab.id, sender.frameId) : [] }), failure: () => ({ urls: [] }) },
  [MSG.RUN_START]: { from: 'page', handle: async (msg) => ({ runId: await SentienceRuns.start(msg) }) },
  [MSG.RUN_CANCEL]: { from: 'page', handle: async (msg) => (await SentienceRuns.cancel(msg.runId), {}) },
  [MSG.RUN_ANSWER]: { from: 'page', handle: async (msg) => (await SentienceRuns.answer(msg.runId, msg.approved, msg.answer), {}) },
  [MSG.RUN_PAUSE]: { from: 'page', handle: async (msg) => (await SentienceRuns.pause(msg.runId), {}) },
  [MSG.RUN_RESUME]: { from: 'page', handle: async (msg) => (await SentienceRuns.resume(msg.runId), {}) },
  [MSG.RUNS_CLEAR]: { from: 'page', handle: async () => (await SentienceRuns.clearFinished(), {}) },
  [MSG.TEST_CONNECTION]: { from: 'page', handle: testConnection },
  // The MCP link (mcp/link.js): pairing and shared tabs, from our own pages only.
  [MSG.MCP_PAIR]: { from: 'page', handle: async (msg) => (await SentienceMcpLink.pair(msg.code), {}) },
  [MSG.MCP_UNPAIR]: { from: 'page', handle: async () => (await SentienceMcpLink.unpair(), {}) },
  [MSG.MCP_SHARE]: { from: 'page', handle: async (msg) => (await SentienceMcpTabs.share(msg.tabId, msg.shared), {}) },
  [MSG.MCP_STATUS]: { from: 'page', handle: () => SentienceMcpLink.status() },
};

/**
 * Whether the agent server at `serverUrl` is there and usable
 * (SentienceServerStatus); the first time one answers, the side panel's
 * onboarding is over.
 * @param {any} msg a validated TEST_CONNECTION message
 */
async function testConnection(msg) {
  const status = await SentienceApi.status({ serverUrl: msg.serverUrl, apiKey: msg.apiKey || '' });
  if (status.ok) {
    const { [STORAGE.SERVER_SEEN]: seen } = await chrome.storage.local.get(STORAGE.SERVER_SEEN);
    if (!seen) await chrome.storage.local.set({ [STORAGE.SERVER_SEEN]: { at: Date.now(), url: status.url, version: status.health.version || '' } });
  }
  return status;
}

/** @param {chrome.runtime.MessageSender} sender */
function fromExtensionPage(sender) {
  return sender.id === chrome.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(chrome.runtime.getURL(''));
}

/**
 * @param {Route['from']} from
 * @param {chrome.runtime.MessageSender} sender
 */
function allowed(from, sender) {
  if (from === 'page') return fromExtensionPage(sender);
  return sender.id === chrome.runtime.id && (from === 'extension' || Boolean(sender.tab));
}

/** @param {any} e */
const errorAnswer = (e) => ({ error: (e && e.message) || String(e) });

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (!msg) return false;
  const route = Object.prototype.hasOwnProperty.call(ROUTES, msg.type) ? ROUTES[msg.type] : null;
  if (!route || !allowed(route.from, sender)) {
    // An extension page's message that is none of the UI's is told so.
    if (!fromExtensionPage(sender) || msg.type === MSG.CALL || (route && route.from === 'extension')) return false;
    sendResponse({ error: SentienceProtocol.validateUiMessage(msg) || `unknown message type ${msg.type}` });
    return false;
  }
  if (route.from === 'page') {
    const invalid = SentienceProtocol.validateUiMessage(msg);
    if (invalid) {
      sendResponse({ error: invalid });
      return false;
    }
  }
  const failure = route.failure || errorAnswer;
  let out;
  try {
    out = route.handle(msg, sender);
  } catch (e) {
    sendResponse(failure(e));
    return false;
  }
  if (out && typeof out.then === 'function') {
    out.then(sendResponse, (/** @type {any} */ e) => sendResponse(failure(e)));
    return true;
  }
  if (out !== undefined) sendResponse(out);
  return false;
});

chrome.tabs.onRemoved.addListener((tabId) => {
  SentienceRuns.onTabRemoved(tabId);
});

chrome.notifications.onButtonClicked.addListener((id, button) => {
  const prefix = SentienceProtocol.ASK_NOTIFICATION_PREFIX;
  if (id.startsWith(prefix)) SentienceRuns.answer(id.slice(prefix.length), button === 0).catch(() => {});
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === SentienceProtocol.RUNS_ALARM) SentienceRuns.resumeAll();
});

// A worker that was stopped (idle, update, crash) resumes unfinished runs.
SentienceRuns.resumeAll();
