// @ts-check
// snapshot(): the wait for stability, the walk (walker.js), the frames
// (frames.js), the engine (engine.js) and the screenshot, for one scope of
// this document; and what each scope keeps of its last snapshot (the
// element registry, the kept answer overlays, query() and format() read).
//
// Two scopes (extension/content/trust.js, docs/api.md "Who may see and do
// what"): page scripts get the "page" scope, no more than the same-origin
// policy gives them (no cross-origin frames, no screenshots); the
// extension's own callers and allow-listed origins get the "full" scope.
// Each scope keeps its own last snapshot, frame routes, diff history and
// focused frame, so what one caller saw or did never reaches the other.
//
// The engine writes the whole answer (crates/snapshot-core: the frames
// report and the screenshot are part of its model): nothing here edits its
// JSON text.
'use strict';

globalThis.SentienceSnapshots = (() => {
  const { MSG } = SentienceProtocol;
  const W = SentienceWire;

  /** Who is asking (content/trust.js). @typedef {'full' | 'page'} Scope */
  /**
   * A kept answer: its text (never an object a page handed over), its
   * elements parsed when first asked, and a number telling snapshots apart.
   * @typedef {{json: string, parsed: any[] | null, generation: number}} KeptSnapshot
   */
  /**
   * What a scope keeps: its last successful snapshot (replaced by the next,
   * so old ones are never retained), that snapshot's id (what `diff: true`
   * compares with), the frame the last click or type went to (keys pressed
   * while focus is inside an iframe go to that frame), and its engines.
   * @typedef {{last: KeptSnapshot | null, previousId: number, focusedFrame: any, engines: SentienceEngineState}} View
   */

  /** @type {Record<Scope, View>} */
  const views = {
    full: { last: null, previousId: 0, focusedFrame: null, engines: SentienceEngines.newState('full') },
    page: { last: null, previousId: 0, focusedFrame: null, engines: SentienceEngines.newState('page') },
  };
  let generation = 0;
  // snapshot_id: increasing within this document's life, shared by both scopes.
  let snapshotCounter = 0;
  // id → element of the last snapshot (every recorded element, a superset
  // of the ids returned): actions and window.sentience_registry resolve ids
  // through it.
  /** @type {Map<number, Element>} */
  let registry = new Map();

  const SCREENSHOT_REFUSED =
    'screenshots are not available to page scripts (they would show cross-origin frames and images the page may not read): allow this origin in the extension\'s options (trusted origins), or take the screenshot through the extension (docs/api.md "Who may see and do what")';

  /** @param {string} error */
  function errorJson(error) {
    return JSON.stringify({ status: 'error', error });
  }

  /**
   * The element of `id` in the last snapshot of this document.
   * @param {number} id
   * @returns {{el: Element, error?: undefined} | {error: string, el?: undefined}}
   */
  function elementFor(id) {
    const el = registry.get(id);
    if (!el) return { error: `no element with id ${id} in the last snapshot (take a new snapshot)` };
    if (!el.isConnected) return { error: `element ${id} is no longer in the document (take a new snapshot)` };
    return { el };
  }

  /**
   * The elements of a kept snapshot, parsed once.
   * @param {KeptSnapshot} snap
   * @returns {any[]}
   */
  function elementsOf(snap) {
    if (!snap.parsed) snap.parsed = JSON.parse(snap.json).elements;
    return /** @type {any[]} */ (snap.parsed);
  }

  /**
   * id → element of a walk.
   * @param {{elements: Element[], ids: (i: number) => number}} raw
   */
  function registryOf(raw) {
    /** @type {Map<number, Element>} */
    const map = new Map();
    for (let i = 0; i < raw.elements.length; i++) map.set(raw.ids(i), raw.elements[i]);
    return map;
  }

  // The engine's tracking argument, laid out as wire.js's T_* columns: this
  // snapshot's id, the scope's previous successful one, how the wait for
  // stability went ({waitedMs, settled}, or null: none), and whether the
  // frames were gathered (the answer then reports them).
  /**
   * @param {number} id
   * @param {number} previousId
   * @param {{waitedMs: number, settled: boolean} | null} waited
   * @param {boolean} frames
   */
  function trackingOf(id, previousId, waited, frames) {
    const t = new Float64Array(W.TRACKING_LEN);
    t[W.T_SNAPSHOT_ID] = id;
    t[W.T_PREVIOUS_ID] = previousId;
    t[W.T_WAITED_MS] = waited ? waited.waitedMs : -1;
    t[W.T_SETTLED] = waited && waited.settled ? 1 : 0;
    t[W.T_FRAMES] = frames ? 1 : 0;
    return t;
  }

  // ------------------------------------------------------- wait for stability
  // `wait_for_stable` → [quiet_ms, timeout_ms], or null when not asked (or
  // malformed: the engine then answers with the error, without a wait).
  // Defaults and cap: the engine's (options.rs), through wire.js.
  /**
   * @param {unknown} opt
   * @returns {[number, number] | null}
   */
  function stableTiming(opt) {
    if (opt === true) return [W.STABLE_QUIET_MS, W.STABLE_TIMEOUT_MS];
    if (!opt || typeof opt !== 'object') return null;
    const o = /** @type {{quiet_ms?: unknown, timeout_ms?: unknown}} */ (opt);
    const quiet = o.quiet_ms ?? W.STABLE_QUIET_MS;
    const timeout = o.timeout_ms ?? W.STABLE_TIMEOUT_MS;
    if (typeof quiet !== 'number' || typeof timeout !== 'number') return null;
    const ok = Number.isInteger(quiet) && Number.isInteger(timeout) && quiet >= 1 && quiet <= timeout && timeout <= W.STABLE_MAX_TIMEOUT_MS;
    return ok ? [quiet, timeout] : null;
  }

  // `frames` → each frame's timeout, or null for `frames: false`; a
  // malformed value gathers with the default (the engine then answers with
  // the error).
  /**
   * @param {unknown} opt
   * @returns {number | null}
   */
  function framesTimeout(opt) {
    if (opt === false) return null;
    if (!opt || typeof opt !== 'object') return W.FRAME_TIMEOUT_MS;
    const t = /** @type {{timeout_ms?: unknown}} */ (opt).timeout_ms;
    return typeof t === 'number' && Number.isInteger(t) && t >= 1 && t <= W.FRAME_MAX_TIMEOUT_MS ? t : W.FRAME_TIMEOUT_MS;
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
  /**
   * The snapshot's JSON text (the contract object, or {status: "error"}).
   * @param {any} options
   * @param {{path?: string} | undefined} via `path: 'service_worker'` forces the worker's engine
   * @param {Scope} scope
   * @returns {Promise<string>}
   */
  async function snapshot(options, via, scope) {
    const view = views[scope];
    const opts = options !== null && typeof options === 'object' ? options : {};
    if (scope === 'page' && opts.screenshot) return errorJson(SCREENSHOT_REFUSED);
    let optionsJson;
    try {
      optionsJson = options === null || options === undefined ? 'null' : JSON.stringify(options);
    } catch (e) {
      return errorJson(`invalid snapshot options: ${/** @type {Error} */ (e).message}`);
    }
    if (typeof optionsJson !== 'string') return errorJson('invalid snapshot options: expected an object');
    // The engine here checks options before any work once it is loaded;
    // until then the engine that computes the snapshot reports them.
    SentienceEngines.load();
    const invalid = SentienceEngines.checkOptions(optionsJson);
    if (invalid) return errorJson(invalid);
    const timing = stableTiming(opts.wait_for_stable);
    const waited = timing ? await waitForStable(timing[0], timing[1]) : null;
    const frameTimeout = framesTimeout(opts.frames);
    const id = ++snapshotCounter;
    const raw = SentienceWalker.collect();
    const next = registryOf(raw);
    // Child frames' walks gathered with ours (frames.js); the engine merges them.
    /** @type {SentienceWalk} */
    let page = raw;
    let report = '';
    if (frameTimeout !== null) {
      const all = await SentienceFrames.collectAll(raw, { timeoutMs: frameTimeout, scope });
      page = all;
      report = SentienceFrames.reportWire(all.report);
    } else SentienceFrames.clearRoutes(scope);
    const tracking = trackingOf(id, view.previousId, waited, frameTimeout !== null);
    const engine = await SentienceEngines.engineFor(view.engines, via, raw.elements.length);
    const answer = await engine.snapshot(page, optionsJson, tracking, report);
    registry = next;
    if (!answer.ok) return answer.json;
    // Max: a slower snapshot started earlier must not move `previous` back.
    view.previousId = Math.max(view.previousId, id);
    // The trusted copy overlays, query() and format() work on: the text
    // this world's engine produced, never an object a page handed over (and
    // without the screenshot).
    view.last = { json: answer.json, parsed: null, generation: ++generation };
    const shot = opts.screenshot;
    if (!shot) return answer.json;
    const spec = shot === true ? { format: 'png', quality: undefined } : { format: shot.format || 'png', quality: shot.quality };
    /** @type {{type: string, format: string, quality: unknown, annotate?: unknown}} */
    const request = { type: MSG.SCREENSHOT, format: spec.format, quality: spec.quality };
    if (shot.annotate === true) request.annotate = annotation(elementsOf(view.last));
    const res = await SentienceOverlay.hiddenDuring(() => chrome.runtime.sendMessage(request));
    if (!res || res.error) return errorJson(`screenshot failed: ${res ? res.error : 'no answer from the service worker'}`);
    return engine.attachScreenshot(res.dataUrl);
  }

  /**
   * The boxes of an annotated screenshot: the snapshot's elements in the viewport.
   * @param {any[]} elements
   */
  function annotation(elements) {
    const marks = [];
    for (const e of elements) {
      if (!e.in_viewport) continue;
      marks.push({ id: e.id, role: e.role, primary: e.visual_cues.is_primary, x: e.bbox.x, y: e.bbox.y, width: e.bbox.width, height: e.bbox.height });
    }
    return { marks, viewport: { width: window.innerWidth, height: window.innerHeight, dpr: window.devicePixelRatio } };
  }

  /**
   * A parent frame's snapshot wants our raw walk (frames.js: eagerly, or
   * asked by the service worker): the walk's elements become this frame's
   * registry, which actions routed here use.
   * @param {unknown} depth
   * @param {any} budget
   */
  function walkForParent(depth, budget) {
    const { data, raw } = SentienceFrames.walkForParent(SentienceWalker.collect, typeof depth === 'number' && Number.isInteger(depth) ? depth : 1, budget);
    registry = registryOf(raw);
    return data;
  }
  SentienceFrames.setWalkForParent(walkForParent);

  return {
    snapshot,
    walkForParent,
    elementFor,
    elementsOf,
    /** @param {Scope} scope */
    view: (scope) => views[scope],
    /** @param {number} id */
    registered: (id) => registry.get(id),
  };
})();
