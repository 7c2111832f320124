// @ts-check
// The isolated-world bridge: receives the MAIN-world facade's private port,
// runs snapshots (walker → WebAssembly engine) and actions, keeps the
// registry of element references, and talks to the service worker.
//
// Two scopes (extension/content/trust.js, docs/api.md "Who may see and do
// what"): page scripts get the "page" scope, no more than the same-origin
// policy gives them (no cross-origin frames, no screenshots); the extension's
// own callers and allow-listed origins get the "full" scope. Each scope keeps
// its own last snapshot, frame routes, diff history and focused frame, so
// what one caller saw or did never reaches the other.
//
// Two engine paths, chosen per page:
// - fast: the WebAssembly engine runs here, in the content script;
// - CSP-immune: when the page's Content-Security-Policy forbids WebAssembly
//   in this world (no 'wasm-unsafe-eval'), the walker's compact columnar
//   data goes to the service worker, whose extension CSP allows it, in
//   chunks over a runtime port.
'use strict';

(() => {
  /** Who is asking (content/trust.js). @typedef {'full' | 'page'} Scope */

  // Names, operations and limits: extension/protocol.js.
  const { FACADE_TAG, CHUNK, MSG, PORT_MSG, COMPUTE_PORT } = SentienceProtocol;

  // ---------------------------------------------------------------- engine
  // Promise<the engine module (pkg/sentience_wasm.js: Engine, check_options,
  // engine_version) | null>. Each scope's view holds its own Engine handle
  // (its diff history), created on its first snapshot.
  let engine = null;

  function loadEngine() {
    if (!engine) {
      engine = (async () => {
        try {
          const url = chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm');
          await SentienceEngine({ module_or_path: url });
          return SentienceEngine;
        } catch (e) {
          // CompileError under a strict page CSP: use the service worker.
          return null;
        }
      })();
    }
    return engine;
  }

  // The first snapshot of a page pays for loading the engine (fetch,
  // compile, instantiate), for compiling the engine's and the walker's
  // functions on their first call, and for first-use work in the page
  // (docs/benchmarks.md, "Real pages"). In a browser session where
  // window.sentience has been used (extension/engine-warmup.js), the top
  // frame does all that in idle time after the page loads: it loads the
  // engine, walks the page and runs an engine handle of its own over the
  // walk (so the page's snapshot ids and diff history are untouched), and
  // drops both. Pages over WARM_MAX_ELEMENTS elements are left alone: their
  // first snapshot is mostly real work.
  const WARM_MAX_ELEMENTS = 20000;
  let useReported = false;
  function reportUse() {
    if (useReported) return;
    useReported = true;
    chrome.runtime.sendMessage({ type: MSG.ENGINE_USED }).catch(() => {});
  }
  async function warmUp() {
    const wasm = await loadEngine();
    if (!wasm || snapshotCounter > 0 || document.getElementsByTagName('*').length > WARM_MAX_ELEMENTS) return;
    const raw = SentienceWalker.collect();
    const warm = new wasm.Engine('content_script');
    warm.snapshot(raw, 'null', trackingOf(1, 0, null));
    warm.free();
  }
  // As soon as the engine has loaded (while the page is still loading, so
  // before any snapshot right after `load`), it runs over a made-up walk
  // (content/warm-walk.js) of a real page's size, twice: WebAssembly
  // functions are compiled on their first call and optimised once they
  // have run a while, which the first snapshot would otherwise pay for
  // (1–4 ms on the real pages). It reads nothing of the page.
  const WARM_COPIES = 20;
  const WARM_RUNS = 2;
  /** @param {any} wasm the engine module, or null (not loadable here) */
  function warmEngine(wasm) {
    if (!wasm || snapshotCounter > 0) return;
    try {
      wasm.check_options('{"limit":50,"diff":true}');
      const warm = new wasm.Engine('content_script');
      const walk = SentienceWarmWalk.walk(WARM_COPIES);
      for (let k = 0; k < WARM_RUNS; k++) warm.snapshot(walk, 'null', trackingOf(1, 0, null));
      warm.free();
    } catch (e) {
      // only a warm-up: a snapshot reports its own errors
    }
  }
  function warmWhenIdle() {
    if (window.top !== window) return;
    chrome.runtime.sendMessage({ type: MSG.ENGINE_WARM }).then(
      (r) => {
        if (!r || r.warm !== true) return;
        // Fetching and compiling run off the main thread: start now, and
        // compile the engine's functions on a made-up walk as soon as it
        // has loaded (content/warm-walk.js), in case a snapshot comes
        // before the idle warm-up below.
        loadEngine().then(warmEngine, () => {});
        const walk = () => {
          SentienceFrames.learnDeadFrames();
          const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback : (f) => setTimeout(f, 50);
          idle(() => warmUp().catch(() => {}), { timeout: 1000 });
        };
        if (document.readyState === 'complete') walk();
        else window.addEventListener('load', walk, { once: true });
      },
      () => {},
    );
  }

  /**
   * The snapshot computed by the service worker (the CSP-immune path).
   * @param {{meta: ArrayLike<number>, nums: Float64Array, strs: string}} raw
   * @param {string} optionsJson
   * @param {unknown[]} tracking
   * @param {Scope} scope
   * @returns {Promise<string>}
   */
  function viaServiceWorker(raw, optionsJson, tracking, scope) {
    return new Promise((resolve) => {
      /** @type {chrome.runtime.Port} */
      let port;
      try {
        port = chrome.runtime.connect({ name: COMPUTE_PORT });
      } catch (e) {
        resolve(errorJson(`extension unavailable: ${e.message}`));
        return;
      }
      const parts = [];
      port.onMessage.addListener((msg) => {
        if (msg.type === PORT_MSG.CHUNK) parts.push(msg.data);
        else if (msg.type === PORT_MSG.DONE) {
          resolve(parts.join(''));
          port.disconnect();
        }
      });
      port.onDisconnect.addListener(() => resolve(errorJson('the service worker closed the connection before answering')));
      port.postMessage({ type: PORT_MSG.BEGIN, meta: Array.from(raw.meta), options: optionsJson, tracking, scope });
      for (let i = 0; i < raw.nums.length; i += CHUNK) port.postMessage({ type: PORT_MSG.NUMS, data: Array.from(raw.nums.subarray(i, i + CHUNK)) });
      for (let i = 0; i < raw.strs.length; i += CHUNK) port.postMessage({ type: PORT_MSG.STRS, data: raw.strs.slice(i, i + CHUNK) });
      port.postMessage({ type: PORT_MSG.END });
    });
  }

  /**
   * @param {string} error
   */
  function errorJson(error) {
    return JSON.stringify({ status: 'error', error });
  }

  // The engine handle's tracking argument, laid out as wire.js's T_* columns:
  // this snapshot's id, the scope's previous successful one, and how the
  // wait for stability went ({waitedMs, settled}, or null: none).
  /**
   * @param {number} id
   * @param {number} previousId
   * @param {{waitedMs: number, settled: boolean} | null} waited
   * @returns {number[]}
   */
  function trackingOf(id, previousId, waited) {
    const t = [];
    t[SentienceWire.T_SNAPSHOT_ID] = id;
    t[SentienceWire.T_PREVIOUS_ID] = previousId;
    t[SentienceWire.T_WAITED_MS] = waited ? waited.waitedMs : -1;
    t[SentienceWire.T_SETTLED] = waited && waited.settled ? 1 : 0;
    return t;
  }

  /**
   * The scope's engine handle (src/lib.rs `Engine`), created on its first snapshot.
   * @param {any} wasm the engine module
   * @param {{engine: any}} view
   */
  function engineOf(wasm, view) {
    if (!view.engine) view.engine = new wasm.Engine('content_script');
    return view.engine;
  }

  // --------------------------------------------------------------- registry
  // id → element of the last snapshot (every recorded element, a superset of
  // the ids returned).
  let registry = new Map();

  /**
   * @param {number} id
   * @returns {{el: Element, error?: undefined} | {error: string, el?: undefined}}
   */
  function elementFor(id) {
    const el = registry.get(id);
    if (!el) return { error: `no element with id ${id} in the last snapshot (take a new snapshot)` };
    if (!el.isConnected) return { error: `element ${id} is no longer in the document (take a new snapshot)` };
    return { el };
  }

  // Per scope: the last successful snapshot, kept by reference (no copy)
  // for overlays, query() and format(), parsed only when asked and replaced
  // by the scope's next snapshot (so old snapshots are never retained); the
  // last successful snapshot id (what `diff: true` compares with); the frame
  // the last click/type went to (keys pressed while focus is inside an
  // iframe go to that frame's focused element).
  /** @typedef {{json: string, parsed: any[] | null, generation: number}} KeptSnapshot */
  // The scope's engine handle (its diff history) too, made on its first snapshot.
  /** @type {Record<Scope, {last: KeptSnapshot | null, previousId: number, focusedFrame: any, engine: any}>} */
  const views = {
    full: { last: null, previousId: 0, focusedFrame: null, engine: null },
    page: { last: null, previousId: 0, focusedFrame: null, engine: null },
  };
  let generation = 0;
  // The scope of the facade's last snapshot: window.sentience_registry
  // resolves frame elements through its routes.
  let facadeScope = 'page';

  const SCREENSHOT_REFUSED =
    'screenshots are not available to page scripts (they would show cross-origin frames and images the page may not read): allow this origin in the extension\'s options (trusted origins), or take the screenshot through the extension (docs/api.md "Who may see and do what")';

  /** The elements of a kept snapshot, parsed once. */
  function elementsOf(snap) {
    if (!snap.parsed) snap.parsed = JSON.parse(snap.json).elements;
    return snap.parsed;
  }

  /** id → element of a walk (window.sentience_registry and actions resolve ids through it). */
  function registryOf(raw) {
    const map = new Map();
    for (let i = 0; i < raw.elements.length; i++) map.set(raw.ids(i), raw.elements[i]);
    return map;
  }

  // The error value of the operations that answer {status, …}.
  /**
   * @param {string} error
   */
  function statusError(error) {
    return { status: 'error', error };
  }

  // ------------------------------------------------------- wait for stability
  // Defaults and cap: must match crates/snapshot-core/src/options.rs
  // (QUIET_MS, TIMEOUT_MS, MAX_TIMEOUT_MS), which validates the option and
  // reports the wait in meta.stability.
  const QUIET_MS = 200;
  const TIMEOUT_MS = 3000;
  const MAX_TIMEOUT_MS = 30000;

  // `wait_for_stable` → [quiet_ms, timeout_ms], or null when not asked (or
  // malformed: the engine then answers with the error, without a wait).
  /**
   * @param {any} opt
   * @returns {[number, number] | null}
   */
  function stableTiming(opt) {
    if (opt === true) return [QUIET_MS, TIMEOUT_MS];
    if (!opt || typeof opt !== 'object') return null;
    const quiet = opt.quiet_ms ?? QUIET_MS;
    const timeout = opt.timeout_ms ?? TIMEOUT_MS;
    const ok = Number.isInteger(quiet) && Number.isInteger(timeout) && quiet >= 1 && quiet <= timeout && timeout <= MAX_TIMEOUT_MS;
    return ok ? [quiet, timeout] : null;
  }

  // When the DOM last changed, once a wait has asked: an observer started by
  // the first wait keeps it, so a later wait on a page that has been quiet
  // for quietMs already (the usual case after an action, which itself waits
  // for quiet: actions.js) returns at once instead of waiting quietMs more.
  // Our own overlay coming or going is not the page changing.
  let lastMutation = 0;
  /** @type {MutationObserver | null} */
  let mutationClock = null;
  function watchMutations() {
    if (mutationClock) return;
    lastMutation = performance.now();
    mutationClock = new MutationObserver((records) => {
      if (!records.every(SentienceOverlay.isOwnMutation)) lastMutation = performance.now();
    });
    mutationClock.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }

  // Resolves once no DOM mutation (nodes, attributes, text; the document
  // and open shadow roots' light DOM, not closed roots) happened for
  // quietMs, or at timeoutMs: {settled, waitedMs}.
  /**
   * @param {number} quietMs
   * @param {number} timeoutMs
   * @returns {Promise<{settled: boolean, waitedMs: number}>}
   */
  function waitForStable(quietMs, timeoutMs) {
    watchMutations();
    return new Promise((resolve) => {
      const start = performance.now();
      if (start - lastMutation >= quietMs) {
        resolve({ settled: true, waitedMs: 0 });
        return;
      }
      const check = () => {
        const now = performance.now();
        if (now - lastMutation >= quietMs) return resolve({ settled: true, waitedMs: Math.round(now - start) });
        if (now - start >= timeoutMs) return resolve({ settled: false, waitedMs: Math.round(now - start) });
        setTimeout(check, Math.max(1, Math.min(quietMs - (now - lastMutation), timeoutMs - (now - start))));
      };
      setTimeout(check, Math.max(1, quietMs - (start - lastMutation)));
    });
  }

  // ---------------------------------------------------------------- snapshot
  // snapshot_id: increasing within this page's life (this content script's),
  // shared by both scopes.
  let snapshotCounter = 0;

  /**
   * The snapshot's JSON text (the contract object, or {status: "error"}).
   * @param {any} options
   * @param {{path?: string}} [via] `path: 'service_worker'` forces the CSP-immune path
   * @param {Scope} [scope]
   * @returns {Promise<string>}
   */
  async function snapshot(options, { path } = {}, scope = 'full') {
    const view = views[scope];
    // Told after this snapshot's own work: nothing here needs it.
    if (!useReported) setTimeout(reportUse, 0);
    /** @type {any} */
    const split = SentienceFrames.takeOptions(options);
    if (split.error) return errorJson(split.error);
    options = split.options;
    if (scope === 'page' && options && typeof options === 'object' && options.screenshot) return errorJson(SCREENSHOT_REFUSED);
    let optionsJson;
    try {
      optionsJson = options === null || options === undefined ? 'null' : JSON.stringify(options);
    } catch (e) {
      return errorJson(`invalid snapshot options: ${e.message}`);
    }
    // The first snapshot of a page loads the engine (fetch, compile,
    // instantiate: ~5 ms on real pages, docs/benchmarks.md "Real pages"):
    // once it is loaded, options are checked before any work; until then,
    // the walk runs while it loads (compiling happens off the main thread)
    // and bad options are reported after the walk.
    const enginePromise = path === 'service_worker' ? null : loadEngine();
    const ready = enginePromise && (await Promise.race([enginePromise, null]));
    if (ready) {
      const invalid = ready.check_options(optionsJson);
      if (invalid) return errorJson(invalid);
    }
    const timing = options && typeof options === 'object' ? stableTiming(options.wait_for_stable) : null;
    const waited = timing ? await waitForStable(timing[0], timing[1]) : null;
    const id = ++snapshotCounter;
    const tracking = trackingOf(id, view.previousId, waited);
    const raw = SentienceWalker.collect();
    const wasm = ready || (enginePromise && (await enginePromise));
    if (wasm && !ready) {
      const invalid = wasm.check_options(optionsJson);
      if (invalid) return errorJson(invalid);
    }
    const next = registryOf(raw);
    // Child frames' walks merged into ours (extension/content/frames.js).
    /** @type {any} */
    let page = raw;
    let frames = null;
    if (split.frames.enabled) {
      page = await SentienceFrames.collectAll(raw, { ...split.frames, scope });
      frames = page.report;
    } else SentienceFrames.clearRoutes(scope);
    let json;
    if (wasm) {
      json = engineOf(wasm, view).snapshot(page, optionsJson, tracking);
    } else {
      json = await viaServiceWorker(page, optionsJson, tracking, scope);
    }
    const ok = json.startsWith('{"status":"success"');
    // Max: a slower snapshot started earlier (service-worker path) must not
    // move `previous` back.
    if (ok) view.previousId = Math.max(view.previousId, id);
    registry = next;
    if (frames && ok) json = `${json.slice(0, -1)},"frames":${JSON.stringify(frames)}}`;
    // The trusted copy overlays, query() and format() work on: the text this
    // world produced, never an object a page handed over (and without the
    // screenshot spliced in below).
    if (ok) view.last = { json, parsed: null, generation: ++generation };
    const shot = options && options.screenshot;
    if (shot && ok) {
      const spec = shot === true ? { format: 'png' } : { format: shot.format || 'png', quality: shot.quality };
      /** @type {{type: string, format: string, quality: unknown, annotate?: unknown}} */
      const request = { type: MSG.SCREENSHOT, format: spec.format, quality: spec.quality };
      if (shot.annotate === true) request.annotate = annotation(elementsOf(view.last));
      const res = await SentienceOverlay.hiddenDuring(() => chrome.runtime.sendMessage(request));
      if (!res || res.error) return errorJson(`screenshot failed: ${res ? res.error : 'no answer from the service worker'}`);
      // Splice into the JSON text rather than parse + re-serialise 1000s of elements.
      json = `${json.slice(0, -1)},"screenshot":${JSON.stringify(res.dataUrl)},"screenshot_format":${JSON.stringify(spec.format)}}`;
    }
    return json;
  }

  // ------------------------------------------------------------ overlays

  /** The boxes of an annotated screenshot: the snapshot's elements in the viewport. */
  function annotation(elements) {
    const marks = [];
    for (const e of elements) {
      if (!e.in_viewport) continue;
      marks.push({ id: e.id, role: e.role, primary: e.visual_cues.is_primary, x: e.bbox.x, y: e.bbox.y, width: e.bbox.width, height: e.bbox.height });
    }
    return { marks, viewport: { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio } };
  }

  // window.sentience.showOverlay({ids?, duration?}): numbered boxes over the
  // last snapshot's elements (all of them by default). Ids that are not in
  // the last snapshot, or whose element has left the document, are reported
  // in `unknown`, never thrown.
  /**
   * @param {any} args
   * @param {Scope} scope
   */
  function showOverlay(args, scope) {
    const last = views[scope].last;
    if (args !== null && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) return statusError('showOverlay: options must be an object {ids?, duration?}');
    const { ids, duration } = args || {};
    if (ids !== undefined && ids !== null && !Array.isArray(ids)) return statusError('showOverlay: ids must be an array of element ids');
    if (duration !== undefined && duration !== null && !(typeof duration === 'number' && Number.isFinite(duration) && duration >= 0)) {
      return statusError('showOverlay: duration must be a number of milliseconds >= 0 (0 or absent: until clearOverlay())');
    }
    if (last === null) return statusError('showOverlay: no snapshot yet: call snapshot() first');
    const elements = elementsOf(last);
    const byId = new Map();
    for (const e of elements) byId.set(e.id, e);
    const wanted = Array.isArray(ids) ? ids : elements.map((e) => e.id);
    const seen = new Set();
    const unknown = [];
    const list = [];
    for (const id of wanted) {
      if (seen.has(id)) continue;
      seen.add(id);
      const e = byId.get(id);
      const el = e ? registry.get(id) : undefined;
      if (!e || (el && !el.isConnected)) {
        unknown.push(typeof id === 'number' || typeof id === 'string' ? id : String(id));
        continue;
      }
      // No live element (one this document does not hold): the snapshot's box, fixed.
      list.push({ id, el, role: e.role, primary: e.visual_cues.is_primary, bbox: el ? null : e.bbox });
    }
    const shown = SentienceOverlay.show(list, duration || 0);
    return { status: 'success', shown, unknown };
  }

  // ---------------------------------------------------- query and format
  // A second, separate WebAssembly module (pkg/sentience_query_bg.wasm), so
  // the snapshot engine's stays small; compiled on first use. Same two paths
  // as the engine: here, or in the service worker when the page's CSP
  // forbids WebAssembly in this world.
  let queryModule = null; // Promise<SentienceQuery | null>
  let loadedGeneration = 0; // which snapshot the module holds (query.load)

  function loadQueryModule() {
    if (!queryModule) {
      queryModule = (async () => {
        try {
          await SentienceQuery({ module_or_path: chrome.runtime.getURL('pkg/sentience_query_bg.wasm') });
          return SentienceQuery;
        } catch (e) {
          return null; // CompileError under a strict page CSP
        }
      })();
    }
    return queryModule;
  }

  // The module in this world, or null to go through the service worker
  // (asked for, or WebAssembly forbidden here by the page's CSP).
  /**
   * @param {any} via
   */
  async function queryModuleFor(via) {
    return via && via.path === 'service_worker' ? null : loadQueryModule();
  }

  // Sends one query/format call to the service worker; resolves to the
  // module's JSON answer text.
  /**
   * @param {{op: string, snapshot: string, [key: string]: unknown}} msg
   * @returns {Promise<string>}
   */
  async function queryViaServiceWorker(msg) {
    try {
      const res = await chrome.runtime.sendMessage({ type: MSG.QUERY, ...msg });
      if (typeof res === 'string') return res;
      return JSON.stringify(statusError(`the service worker failed: ${res && res.error ? res.error : 'no answer'}`));
    } catch (e) {
      return JSON.stringify(statusError(`extension unavailable: ${e.message}`));
    }
  }

  // Puts the kept snapshot `snap` into the query module, unless it is there
  // already (parsed once for any number of queries and formats). Returns
  // the error answer, or null.
  /**
   * @param {any} mod
   * @param {KeptSnapshot} snap
   */
  function loadInto(mod, snap) {
    if (loadedGeneration === snap.generation) return null;
    const failed = mod.load(snap.json);
    if (failed) return JSON.parse(failed);
    loadedGeneration = snap.generation;
    return null;
  }

  /**
   * @param {{query?: unknown}} args
   * @param {boolean} first find(): the first match or null
   * @param {any} via
   * @param {Scope} scope
   */
  async function runQuery({ query } = {}, first, via, scope) {
    const last = views[scope].last;
    if (typeof query !== 'string') return statusError('invalid query: the query must be a string, e.g. "role=button text~\'sign in\'"');
    if (!last) return statusError('no snapshot yet: call window.sentience.snapshot() first (queries run on the last snapshot)');
    const snap = last;
    const mod = await queryModuleFor(via);
    let answer;
    if (mod) {
      const failed = loadInto(mod, snap);
      if (failed) return failed;
      answer = mod.query(query, first);
    } else {
      answer = await queryViaServiceWorker({ op: 'query', snapshot: snap.json, query, first });
    }
    const res = JSON.parse(answer);
    if (res.status !== 'success') return res;
    const elements = elementsOf(snap);
    const found = res.indices.map((i) => elements[i]);
    return first ? (found.length ? found[0] : null) : found;
  }

  /**
   * @param {any} args
   * @param {any} via
   * @param {Scope} scope
   */
  async function runFormat(args, via, scope) {
    const last = views[scope].last;
    args = args || {};
    let maxTokens = 1000;
    if (args.max_tokens !== undefined && args.max_tokens !== null) {
      maxTokens = args.max_tokens;
      if (!Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > 1e7) return statusError('invalid format options: max_tokens must be an integer from 0 to 10000000');
    }
    const mod = await queryModuleFor(via);
    let answer;
    if (args.snapshot !== undefined && args.snapshot !== null) {
      // A copy the page handed over (already structured-cloned into this
      // world): formatted, never kept as "the last snapshot".
      let json;
      try {
        json = JSON.stringify(args.snapshot);
      } catch (e) {
        return statusError(`invalid snapshot: ${e.message}`);
      }
      if (typeof json !== 'string') return statusError('invalid snapshot: expected a snapshot object');
      answer = mod ? mod.format(json, maxTokens) : await queryViaServiceWorker({ op: 'format', snapshot: json, max_tokens: maxTokens });
    } else if (!last) {
      return statusError('no snapshot yet: call window.sentience.snapshot() first, or pass a snapshot to format()');
    } else if (mod) {
      const failed = loadInto(mod, last);
      if (failed) return failed;
      answer = mod.format_loaded(maxTokens);
    } else {
      answer = await queryViaServiceWorker({ op: 'format', snapshot: last.json, max_tokens: maxTokens });
    }
    const res = JSON.parse(answer);
    return res.status === 'success' ? res.text : res;
  }

  // ----------------------------------------------------------------- actions
  // The actions on an element of this document, by operation.
  /** @type {Record<'click' | 'type' | 'scroll' | 'select', (el: Element, args: any) => unknown>} */
  const ON_ELEMENT = {
    click: (el) => SentienceActions.click(el),
    type: (el, args) => SentienceActions.type(el, args.text),
    scroll: (el, args) => SentienceActions.scroll(args, el),
    select: (el, args) => SentienceActions.select(el, args.value),
  };

  /**
   * @param {'click' | 'type' | 'press' | 'scroll' | 'select'} op
   * @param {any} args
   * @param {Scope} scope
   */
  async function act(op, args, scope) {
    const view = views[scope];
    args = args || {};
    // An action routed from the frame that took the snapshot names the
    // document its ids belong to.
    if (args.doc !== undefined && args.doc !== SentienceFrames.token) return { success: false, error: 'the frame has navigated since the snapshot (take a new snapshot)', outcome: 'none' };
    if (op === 'press') {
      const active = document.activeElement;
      if (view.focusedFrame && active && (active.localName === 'iframe' || active.localName === 'frame')) return SentienceFrames.call(view.focusedFrame, 'press', { key: args.key });
      return SentienceActions.press(args.key);
    }
    if (op === 'scroll' && args.id === undefined) return SentienceActions.scroll(args, null);
    const id = Number(args.id);
    if (!Number.isInteger(id)) return { success: false, error: `${op}: id must be an integer element id`, outcome: 'none' };
    const route = SentienceFrames.routeOf(id, scope);
    if (route) {
      if (op === 'click' || op === 'type') view.focusedFrame = route;
      return SentienceFrames.call(route, op, { ...args, id: route.localId });
    }
    // An element of a frame this caller may not reach (only the full scope
    // has routes into cross-origin frames): refused, nothing happens there.
    if (scope === 'page' && SentienceFrames.routeOf(id, 'full')) return { success: false, error: `${op}: element ${id} is in a frame of another origin: page scripts may not act there (docs/api.md "Who may see and do what")`, outcome: 'none' };
    const { el, error } = elementFor(id);
    if (error) return { success: false, error, outcome: 'none' };
    if (Object.prototype.hasOwnProperty.call(ON_ELEMENT, op)) return ON_ELEMENT[/** @type {keyof typeof ON_ELEMENT} */ (op)](el, args);
    return { success: false, error: `unknown action ${op}`, outcome: 'none' };
  }

  // ------------------------------------------------- for the agent loop
  // Title, visible text, and for the given ids the ElementInfo (docs/contracts/run-api.md §12)
  // facts the agent server's policies use besides the snapshot fields
  // (docs/contracts/snapshot.md §3).
  /** @param {{ids?: unknown, doc?: unknown}} args */
  async function pageInfo({ ids, doc } = {}) {
    if (doc !== undefined && doc !== SentienceFrames.token) return { title: '', visibleText: '', elements: {} };
    const elements = {};
    // Frames of the last snapshot: their elements' facts and their visible
    // text, asked of each frame once (a form in an iframe is part of the page).
    const byFrame = new Map();
    // (Only when asked as the driver: a frame asked by its driver answers for itself.)
    if (doc === undefined) for (const route of SentienceFrames.framesInSnapshot('full')) byFrame.set(route.frameId, { route, ids: [], text: '' });
    for (const id of Array.isArray(ids) ? ids : []) {
      const route = SentienceFrames.routeOf(id, 'full');
      if (route && byFrame.has(route.frameId)) byFrame.get(route.frameId).ids.push([id, route.localId]);
    }
    await Promise.all(
      Array.from(byFrame.values(), async (f) => {
        const info = await SentienceFrames.call(f.route, 'page_info', { ids: f.ids.map((p) => p[1]) });
        for (const [id, local] of f.ids) if (info && info.elements && info.elements[local]) elements[id] = info.elements[local];
        f.text = info && typeof info.visibleText === 'string' ? info.visibleText : '';
      }),
    );
    let text = document.body ? document.body.innerText : '';
    for (const f of byFrame.values()) if (f.text) text += ` ${f.text}`;
    for (const id of Array.isArray(ids) ? ids : []) {
      const el = registry.get(id);
      if (!el) continue;
      const tag = el.localName;
      const type = tag === 'input' || tag === 'button' ? (el.getAttribute('type') || (tag === 'input' ? 'text' : 'submit')).toLowerCase() : undefined;
      const labels = el.labels ? Array.from(el.labels, (l) => l.textContent.trim()).join(' ') : '';
      const info = {
        tag,
        ariaLabel: (el.getAttribute('aria-label') || labels || el.getAttribute('placeholder') || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim().slice(0, 200),
        disabled: el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true',
      };
      if (type) info.type = type;
      // DomFacts (crates/snapshot-core/src/observed.rs): the ARIA role as
      // written, the form it belongs to (1 + its index), read-only fields.
      const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
      if (role) info.ariaRole = role;
      const form = el.form || el.closest('form');
      if (form) info.form = Array.prototype.indexOf.call(document.forms, form) + 1;
      if (el.readOnly) info.readOnly = true;
      // An icon with no words of its own: those of its id and classes.
      if (!info.ariaLabel && !(el.textContent || '').trim()) {
        const cls = typeof el.className === 'string' ? el.className : '';
        const words = `${el.id} ${cls}`.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/\s+/g, ' ').trim();
        if (words) info.hint = words.slice(0, 80);
      }
      if (el.getAttribute('name')) info.name = el.getAttribute('name');
      if (el.getAttribute('placeholder')) info.placeholder = el.getAttribute('placeholder');
      if ((tag === 'input' && type !== 'password' && type !== 'hidden') || tag === 'textarea') info.value = String(el.value).slice(0, 100);
      if (tag === 'select' && el.selectedOptions[0]) info.value = el.selectedOptions[0].text.slice(0, 100);
      if (tag === 'a' && el.href) info.href = el.href;
      elements[id] = info;
    }
    return { title: document.title, visibleText: text.replace(/\s+/g, ' ').trim().slice(0, 6000), elements };
  }

  // Shows people what the agent is about to act on (overlay.js draws it).
  /**
   * @param {{id?: unknown, label?: unknown}} args
   */
  function highlight({ id, label }) {
    const route = SentienceFrames.routeOf(Number(id), 'full');
    if (route) return SentienceFrames.call(route, 'highlight', { id: route.localId, label });
    const { el, error } = elementFor(Number(id));
    if (error) return { success: false, error };
    SentienceOverlay.highlight(el, Number(id), String(label || 'act').slice(0, 40));
    return { success: true, outcome: 'none' };
  }

  // Operations that answer {status, …} (snapshot's errors are handled
  // apart), and those the page's facade may ask for (main-world.js); the
  // rest (page_info, highlight, ping, frame walks) is the extension's own.
  // protocol.js OPS says which is which.
  const STATUS_OPS = new Set(SentienceProtocol.STATUS_OPS);
  const FACADE_OPS = new Set(SentienceProtocol.FACADE_OPS);

  /**
   * A reply: snapshot's JSON text (passed on unparsed), or any other value.
   * @typedef {{json: string, value?: undefined} | {value: unknown, json?: undefined}} Reply
   */
  /**
   * Every operation answered here, by name (frame_walk, a parent frame's
   * request, is answered by the runtime listener below).
   * @type {Record<Exclude<SentienceOp, 'frame_walk'>, (args: any, via: any, scope: Scope) => Promise<Reply>>}
   */
  const OPERATIONS = {
    snapshot: async (args, via, scope) => ({ json: await snapshot(args, via, scope) }),
    ping: async () => ({ value: { ready: true } }),
    page_info: async (args) => ({ value: await pageInfo(args || {}) }),
    highlight: async (args) => ({ value: await highlight(args || {}) }),
    show_overlay: async (args, _via, scope) => ({ value: showOverlay(args, scope) }),
    clear_overlay: async () => ({ value: { status: 'success', cleared: SentienceOverlay.clear() } }),
    query: async (args, via, scope) => ({ value: await runQuery(args || {}, false, via, scope) }),
    find: async (args, via, scope) => ({ value: await runQuery(args || {}, true, via, scope) }),
    format: async (args, via, scope) => ({ value: await runFormat(args, via, scope) }),
    click: async (args, _via, scope) => ({ value: await act('click', args, scope) }),
    type: async (args, _via, scope) => ({ value: await act('type', args, scope) }),
    press: async (args, _via, scope) => ({ value: await act('press', args, scope) }),
    scroll: async (args, _via, scope) => ({ value: await act('scroll', args, scope) }),
    select: async (args, _via, scope) => ({ value: await act('select', args, scope) }),
  };

  /**
   * Runs operation `op`. `scope`: "full" for the extension's own callers
   * and allow-listed origins, "page" for other page scripts.
   * @param {unknown} op
   * @param {any} args
   * @param {any} via
   * @param {Scope} [scope]
   * @returns {Promise<Reply>}
   */
  async function handle(op, args, via, scope = 'full') {
    if (typeof op === 'string' && Object.prototype.hasOwnProperty.call(OPERATIONS, op)) return OPERATIONS[/** @type {keyof typeof OPERATIONS} */ (op)](args, via, scope);
    return { value: { success: false, error: `unknown operation ${op}`, outcome: 'none' } };
  }

  // window.sentience_registry for frame elements (SentienceFrames.registryHop):
  // the answer goes to an <iframe> with the key that frame's own registry
  // resolves; the facade asks it. Elements of cross-origin frames (or below
  // one) cannot be handed to the page: the registry gives undefined.
  /**
   * @param {number} id
   * @param {string} responseName
   */
  function frameElementFor(id, responseName) {
    const hop = SentienceFrames.forwardOf(id) || SentienceFrames.registryHop(id, facadeScope);
    if (hop) hop.el.dispatchEvent(new CustomEvent(responseName, { bubbles: false, composed: true, detail: hop.next }));
  }

  // --------------------------------------------- the MAIN-world facade's port
  // Registered at document_start, capturing, before any page listener: the
  // first init message is ours (the facade posts it at document_start too)
  // and no page script ever sees it. Later init messages are forgeries.
  let facadePort = null;
  window.addEventListener(
    'message',
    (event) => {
      const data = event.data;
      if (event.source !== window || !data || data.__sentience !== FACADE_TAG || data.type !== 'init') return;
      event.stopImmediatePropagation();
      if (facadePort || event.ports.length !== 1) return;
      facadePort = event.ports[0];
      const names = {
        request: `sentience-${crypto.randomUUID()}`,
        response: `sentience-${crypto.randomUUID()}`,
        reply: `sentience-${crypto.randomUUID()}`,
        call: `sentience-${crypto.randomUUID()}`,
      };
      // Registry resolution: answered synchronously by dispatching the
      // secret response event on the element itself.
      document.addEventListener(
        names.request,
        (e) => {
          e.stopImmediatePropagation();
          const id = Number(/** @type {CustomEvent} */ (e).detail);
          const el = registry.get(id);
          if (el && el.isConnected) el.dispatchEvent(new CustomEvent(names.response, { bubbles: false, composed: true }));
          else frameElementFor(id, names.response);
        },
        true,
      );
      // A call of the facade: on the port, or (once it has the names) as
      // the secret `call` event, dispatched in the page's task; the work
      // starts after its first await, as the page's script has finished.
      const onCall = async (msg) => {
        if (!msg || typeof msg.call !== 'number') return;
        let reply;
        try {
          if (!FACADE_OPS.has(msg.op)) throw new Error(`unknown operation ${msg.op}`);
          const scope = (await SentienceTrust.pageTrusted()) ? 'full' : 'page';
          reply = await handle(msg.op, msg.args, undefined, scope);
          if (msg.op === 'snapshot') facadeScope = scope;
        } catch (err) {
          const error = String(err && err.message);
          if (msg.op === 'snapshot') reply = { json: errorJson(`snapshot failed: ${error}`) };
          else if (STATUS_OPS.has(msg.op)) reply = { value: { status: 'error', error: `${msg.op} failed: ${error}` } };
          else reply = { value: { success: false, error, outcome: 'none' } };
        }
        // The answer as the secret reply event once the facade has its
        // name (it reads it in this task, main-world.js `answer`), else on
        // the port.
        if (msg.events === true) document.dispatchEvent(new CustomEvent(names.reply, { detail: { call: msg.call, ...reply } }));
        else facadePort.postMessage({ call: msg.call, ...reply });
      };
      facadePort.onmessage = (e) => onCall(e.data);
      document.addEventListener(
        names.call,
        (e) => {
          e.stopImmediatePropagation();
          let msg = null;
          try {
            msg = /** @type {CustomEvent} */ (e).detail; // null when it could not be cloned
          } catch (err) {
            msg = null;
          }
          if (!msg || typeof msg.call !== 'number') return; // not taken: the facade uses the port
          e.preventDefault();
          onCall(msg);
        },
        true,
      );
      facadePort.postMessage({ type: 'hello', ...names });
    },
    true,
  );

  // A parent frame's snapshot wants our raw walk (frames.js: eagerly, with
  // our claim of its nonce, or asked by the service worker): the walk's
  // elements become this frame's registry, which actions routed here use.
  /**
   * @param {unknown} depth
   * @param {any} budget
   */
  function walkForParent(depth, budget) {
    const { data, raw } = SentienceFrames.walkForParent(SentienceWalker.collect, Number.isInteger(depth) ? depth : 1, budget);
    registry = registryOf(raw);
    return data;
  }
  SentienceFrames.setWalkForParent(walkForParent);

  // ------------------------------------------ automation through a debugger
  // The full scope for whoever holds the browser's debugging connection
  // (CDP `Runtime.evaluate` in this isolated world, named "Sentience"):
  // the tool server's sessions, Playwright/Puppeteer through a CDP session.
  // Pages cannot reach this world's globals; a debugger could do anything
  // anyway. Resolves to what the page API would (snapshot: the contract
  // object), e.g. `SentienceTrusted.call('snapshot', {limit: 50})`.
  globalThis.SentienceTrusted = Object.freeze({
    call: async (op, args) => {
      const reply = await handle(op, args === undefined ? null : args, undefined, 'full');
      return reply.json !== undefined ? JSON.parse(reply.json) : reply.value;
    },
  });
  warmWhenIdle();

  // ------------------------------------------ the extension's own callers
  // The service worker (agent runs, tests through the extension) calls the
  // same operations; only the extension can send these messages.
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !msg || msg.type !== MSG.CALL) return false;
    // A parent frame's snapshot asks for our raw walk (only through the
    // service worker, never from the page's facade).
    if (msg.op === 'frame_walk') {
      SentienceFrames.learnFrameId(msg.frameId);
      try {
        sendResponse({ value: walkForParent(msg.depth, SentienceFrames.budgetFor(msg.scope)) });
      } catch (e) {
        sendResponse({ value: null }); // the driver lists the frame as unreachable
      }
      return false;
    }
    handle(msg.op, msg.args, msg.via).then(sendResponse, (err) => sendResponse({ value: { success: false, error: String(err), outcome: 'none' } }));
    return true;
  });
})();
