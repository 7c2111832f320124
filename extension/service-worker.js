// The service worker: the CSP-immune home of the WebAssembly engine (the
// extension's own CSP allows 'wasm-unsafe-eval' whatever the page's), and
// the only place that may capture screenshots.
//
// Classic (non-module) worker so importScripts can load the no-modules
// wasm-bindgen glue at startup, as service workers require.
'use strict';

importScripts('../pkg/sentience_wasm.js', '../pkg/sentience_query.js', 'messages.js', 'overlay-palette.js', 'annotate.js', 'frame-liveness.js', 'frame-relay.js', 'engine-warmup.js', 'run/api-client.js', 'run/tools.js', 'run/run-loop.js');
// The walker ↔ engine wire's names (generated from crates/snapshot-core/src/raw.rs).
importScripts('content/wire.js');

let engine = null;
function loadEngine() {
  if (!engine) engine = wasm_bindgen({ module_or_path: chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm') }).then(() => wasm_bindgen);
  return engine;
}

// One engine handle (src/lib.rs `Engine`: a page's diff history) per page
// number (below), for the last ENGINES_KEPT pages computed here, least
// recently used dropped first.
const ENGINES_KEPT = 4;
const engines = new Map();
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
let queryModule = null;
function loadQueryModule() {
  if (!queryModule) queryModule = sentience_query({ module_or_path: chrome.runtime.getURL('pkg/sentience_query_bg.wasm') }).then(() => sentience_query);
  return queryModule;
}

// Answers with the module's JSON text; the snapshot comes with every call
// (the worker may be stopped between calls, so it keeps nothing).
async function queryCall(msg) {
  try {
    const mod = await loadQueryModule();
    if (typeof msg.snapshot !== 'string') return JSON.stringify({ status: 'error', error: 'no snapshot given' });
    if (msg.op === 'query') return mod.query_in(msg.snapshot, String(msg.query), msg.first === true);
    if (msg.op === 'format') return mod.format(msg.snapshot, Number(msg.max_tokens) >>> 0);
    return JSON.stringify({ status: 'error', error: `unknown query operation ${msg.op}` });
  } catch (e) {
    return JSON.stringify({ status: 'error', error: `query module failed in the service worker: ${e && e.message}` });
  }
}

const CHUNK = 8 * 1024 * 1024;

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
  if (port.name !== 'sentience-compute' || !port.sender || port.sender.id !== chrome.runtime.id) {
    port.disconnect();
    return;
  }
  let meta = null;
  let options = 'null';
  let tracking = [];
  let pageKey = 0;
  const nums = [];
  const strs = [];
  port.onMessage.addListener(async (msg) => {
    if (msg.type === 'begin') {
      meta = msg.meta;
      options = msg.options;
      tracking = Array.isArray(msg.tracking) ? msg.tracking.slice(0, SentienceWire.TRACKING_LEN) : [];
      pageKey = pageNumber(port.sender, msg.scope);
    } else if (msg.type === 'nums') {
      nums.push(msg.data);
    } else if (msg.type === 'strs') {
      strs.push(msg.data);
    } else if (msg.type === 'end') {
      let json;
      try {
        const wasm = await loadEngine();
        const flat = new Float64Array(nums.reduce((n, part) => n + part.length, 0));
        let at = 0;
        for (const part of nums) {
          flat.set(part, at);
          at += part.length;
        }
        // The bridge's walk (frames included) and tracking (wire.js T_* columns), as they came.
        json = engineFor(wasm, pageKey).snapshot({ meta, nums: flat, strs: strs.join('') }, options, tracking);
      } catch (e) {
        json = JSON.stringify({ status: 'error', error: `engine failed in the service worker: ${e && e.message}` });
      }
      for (let i = 0; i < json.length; i += CHUNK) port.postMessage({ type: 'chunk', data: json.slice(i, i + CHUNK) });
      port.postMessage({ type: 'done' });
    }
  });
});

// Chrome allows two captureVisibleTab calls per second per extension; an
// agent that asks for screenshots back to back waits for the quota instead
// of failing.
async function capture(windowId, opts) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await chrome.tabs.captureVisibleTab(windowId, opts);
    } catch (e) {
      if (attempt >= 4 || !/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(e && e.message))) throw e;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

// Screenshots: only for the top frame of the tab that is visible in its
// window, so a background tab can never capture whatever tab is in front.
async function screenshot(msg, sender) {
  const tab = sender.tab;
  if (!tab || sender.frameId !== 0) return { error: 'screenshots are only available to the top frame of a tab' };
  const current = await chrome.tabs.get(tab.id);
  if (!current.active) return { error: 'the tab is not the visible tab of its window' };
  const format = msg.format === 'jpeg' ? 'jpeg' : 'png';
  const quality = format === 'jpeg' && Number.isInteger(msg.quality) && msg.quality >= 0 && msg.quality <= 100 ? msg.quality : undefined;
  const opts = { format };
  if (quality !== undefined) opts.quality = quality;
  try {
    if (!msg.annotate) return { dataUrl: await capture(current.windowId, opts) };
    // Annotated: capture losslessly, draw, then encode once as asked.
    const png = await capture(current.windowId, { format: 'png' });
    return { dataUrl: await SentienceAnnotate.draw(png, msg.annotate, format, quality) };
  } catch (e) {
    return { error: e && e.message ? e.message : String(e) };
  }
}

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id || !msg) return false;
  if (msg.type === 'screenshot') {
    screenshot(msg, sender).then(sendResponse);
    return true;
  }
  if (msg.type === 'sentience-query') {
    queryCall(msg).then(sendResponse);
    return true;
  }
  return false;
});

// For the extension's own callers (agent runs, tests): run an operation of
// the window.sentience API in a tab, e.g.
// sentienceCall(tabId, 'snapshot', {limit: 5}, {path: 'service_worker'}).
globalThis.sentienceCall = SentienceTools.call;

// ------------------------------------------------------------------ runs
// Only the extension's own pages (popup, side panel, options, and the CLI
// through an extension page) may start, answer or cancel runs: content
// scripts share the page's renderer and pages cannot reach this worker.
function fromExtensionPage(sender) {
  return sender.id === chrome.runtime.id && typeof sender.url === 'string' && sender.url.startsWith(chrome.runtime.getURL(''));
}

async function handleUi(msg) {
  switch (msg.type) {
    case 'run-start':
      return { runId: await SentienceRuns.start(msg) };
    case 'run-cancel':
      await SentienceRuns.cancel(msg.runId);
      return {};
    case 'run-answer':
      await SentienceRuns.answer(msg.runId, msg.approved, msg.answer);
      return {};
    case 'runs-clear':
      await SentienceRuns.clearFinished();
      return {};
    case 'test-connection':
      return { health: await SentienceApi.health({ serverUrl: msg.serverUrl, apiKey: msg.apiKey || '' }) };
    default:
      throw new Error(`unhandled ${msg.type}`);
  }
}

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (!msg || msg.type === 'screenshot' || msg.type === 'sentience-call' || msg.type === 'sentience-query') return false;
  if (!fromExtensionPage(sender)) return false;
  const invalid = SentienceMessages.validate(msg);
  if (invalid) {
    sendResponse({ error: invalid });
    return false;
  }
  handleUi(msg).then(sendResponse, (e) => sendResponse({ error: e.message || String(e) }));
  return true;
});

chrome.tabs.onRemoved.addListener((tabId) => {
  SentienceRuns.onTabRemoved(tabId);
});

chrome.notifications.onButtonClicked.addListener((id, button) => {
  if (id.startsWith('ask:')) SentienceRuns.answer(id.slice(4), button === 0).catch(() => {});
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === 'sentience-runs') SentienceRuns.resumeAll();
});

// A worker that was stopped (idle, update, crash) resumes unfinished runs.
SentienceRuns.resumeAll();
