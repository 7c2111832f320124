// @ts-check
// The snapshot engine of this document: where it runs, how it is loaded,
// and how a document's two engines keep one diff history
// (docs/architecture.md "Loaded on first use").
//
// Two engines, one interface (`SentienceEngineHandle` below):
// - here: the WebAssembly module (pkg/sentience_wasm.js, typed by the
//   sentience_wasm.d.ts wasm-bindgen generates: tests/tsconfig/), fetched
//   and compiled on this document's first snapshot, off the main thread
//   while the walker runs;
// - the service worker's copy (its extension CSP allows WebAssembly
//   whatever the page's): the walk goes there in chunks over a runtime port
//   (COMPUTE_PORT) and the answer comes back the same way. Used when the
//   page's Content-Security-Policy forbids WebAssembly in this world (no
//   'wasm-unsafe-eval': loading fails with a CompileError), when a caller
//   asks for it (`via.path === 'service_worker'`), and for a document's
//   first snapshots while the engine here is still loading, as long as the
//   walk is small enough for the message path to be the faster one: the
//   worker's engine is compiled and warm already, where this document's
//   would pay for fetching, compiling and its functions' first calls.
//
// A scope's snapshots computed by the worker before the engine here was
// ready are run again here, once it is (`catchUp`): the same walks with the
// same ids and options give the same fingerprints, so a later `diff: true`
// or `since` compares across the switch exactly as within one engine. That
// run is also what compiles this document's engine functions (the warm-up,
// after the first use, never before).
'use strict';

/**
 * What an engine answers: the answer's JSON text and whether it is a
 * success.
 * @typedef {{json: string, ok: boolean}} SentienceEngineAnswer
 */
/**
 * One scope's engine, wherever it runs. When the options asked for a
 * screenshot, it keeps the snapshot and `attachScreenshot` gives the whole
 * answer with it.
 * @typedef {object} SentienceEngineHandle
 * @property {(walk: SentienceWalk, options: string, tracking: Float64Array, frames: string) => Promise<SentienceEngineAnswer>} snapshot
 * @property {(dataUrl: string) => Promise<string>} attachScreenshot
 */
/**
 * A scope's engines: the one here (made on its first use), and the
 * snapshots the worker computed before it was ready, to run again here.
 * @typedef {{scope: 'full' | 'page', local: SentienceEngine.Engine | null, behind: {walk: SentienceWalk, options: string, tracking: Float64Array}[]}} SentienceEngineState
 */

globalThis.SentienceEngines = (() => {
  const { PORT_MSG, COMPUTE_PORT, CHUNK } = SentienceProtocol;

  // Over this many nodes, a first snapshot waits for the engine here rather
  // than sending the walk to the service worker (a 10,000-element walk is
  // ~1.5 MB of messages; loading the engine takes ~5 ms).
  const REMOTE_FIRST_MAX_NODES = 1500;
  // How many of a scope's snapshots its history keeps (crates/snapshot-core/src/diff.rs):
  // no older one needs running again.
  const HISTORY = 4;

  /** @type {Promise<typeof SentienceEngine | null> | null} */
  let loading = null;
  /** @type {typeof SentienceEngine | null} */
  let ready = null;
  // Prepared ahead (trusted origins, content/preload.js): a first snapshot
  // waits for this document's engine, already loading, rather than
  // sending its walk to the worker.
  let prepared = false;

  /**
   * Starts loading the engine here (once); resolves to the module, or null
   * when WebAssembly cannot run in this world (the page's CSP).
   * @returns {Promise<typeof SentienceEngine | null>}
   */
  function load() {
    if (!loading) {
      loading = (async () => {
        try {
          await SentienceEngine({ module_or_path: chrome.runtime.getURL('pkg/sentience_wasm_bg.wasm') });
          ready = SentienceEngine;
          return SentienceEngine;
        } catch (e) {
          return null; // CompileError under a strict page CSP: the worker's engine
        }
      })();
    }
    return loading;
  }

  // Pages over this many elements are not walked to prepare the engine:
  // their first snapshot is mostly real work.
  const WARM_MAX_ELEMENTS = 20000;

  // As soon as the engine has loaded (while the page is still loading), it
  // runs over a made-up walk (content/warm-walk.js) of a real page's size,
  // twice: WebAssembly functions are compiled on their first call and
  // optimised once they have run a while, which the first snapshot would
  // otherwise pay for (1-4 ms on the real pages). It reads nothing of the page.
  const WARM_COPIES = 20;
  const WARM_RUNS = 2;

  /**
   * Loads the engine and compiles its functions on a made-up walk
   * (content/preload.js, trusted origins only, while the page loads).
   */
  async function prepare() {
    prepared = true;
    const wasm = await load();
    if (!wasm) return;
    const engine = new wasm.Engine('content_script');
    try {
      const walk = SentienceWarmWalk.walk(WARM_COPIES);
      const tracking = new Float64Array(SentienceWire.TRACKING_LEN);
      for (let k = 0; k < WARM_RUNS; k++) engine.snapshot(walk, 'null', tracking, '');
    } finally {
      engine.free();
    }
  }

  /**
   * Prepares the engine before a first snapshot (content/preload.js, on
   * trusted origins only, once the page is idle): runs an engine handle of
   * its own over a walk of the page, dropped (the scopes' ids and diff
   * histories are untouched), which compiles the walker's functions too.
   */
  async function warm() {
    const wasm = await load();
    if (!wasm || document.getElementsByTagName('*').length > WARM_MAX_ELEMENTS) return;
    const engine = new wasm.Engine('content_script');
    try {
      engine.snapshot(SentienceWalker.collect(), 'null', new Float64Array(SentienceWire.TRACKING_LEN), '');
    } finally {
      engine.free();
    }
  }

  /** The engine module once loaded here, else null (not yet, or never). */
  function loaded() {
    return ready;
  }

  /**
   * A scope's engines (each scope of a document has its own diff history,
   * here and in the worker).
   * @param {'full' | 'page'} scope
   * @returns {SentienceEngineState}
   */
  function newState(scope) {
    return { scope, local: null, behind: [] };
  }

  /**
   * The engine handle of this world for `state`, after running the
   * snapshots the worker computed for it meanwhile.
   * @param {typeof SentienceEngine} wasm
   * @param {SentienceEngineState} state
   * @returns {SentienceEngine.Engine}
   */
  function localOf(wasm, state) {
    if (!state.local) state.local = new wasm.Engine('content_script');
    catchUp(state);
    return state.local;
  }

  /** @param {SentienceEngineState} state */
  function catchUp(state) {
    if (!state.local) return;
    for (const s of state.behind.splice(0)) {
      try {
        state.local.snapshot(s.walk, s.options, s.tracking, '');
      } catch (e) {
        // the history misses one snapshot: a diff against it says so
      }
    }
  }

  /**
   * The engine for one snapshot of a scope: here when loaded (or worth
   * waiting for), else the service worker's.
   * @param {SentienceEngineState} state
   * @param {{path?: string} | undefined} via
   * @param {number} nodes the walk's node count
   * @returns {Promise<SentienceEngineHandle>}
   */
  async function engineFor(state, via, nodes) {
    const forced = via && via.path === 'service_worker';
    if (forced) return remote(state.scope, null);
    const wasm = ready || (prepared || nodes > REMOTE_FIRST_MAX_NODES ? await load() : null);
    if (wasm) return local(localOf(wasm, state));
    // Not loaded yet (a first snapshot): the worker computes it, and the
    // engine here catches up once loaded. Under a strict CSP, always.
    const pending = load();
    pending.then((m) => {
      if (m) localOf(m, state);
    });
    return remote(state.scope, state);
  }

  /**
   * @param {SentienceEngine.Engine} engine
   * @returns {SentienceEngineHandle}
   */
  function local(engine) {
    return {
      snapshot: async (walk, options, tracking, frames) => {
        const json = engine.snapshot(walk, options, tracking, frames);
        return { json, ok: engine.ok };
      },
      attachScreenshot: async (dataUrl) => engine.attach_screenshot(dataUrl),
    };
  }

  /**
   * The service worker's engine for `scope`. `state`: the scope whose
   * engine here must run this snapshot again once loaded (null: a call
   * that asked for the worker's engine, whose history the worker keeps).
   * @param {'full' | 'page'} scope
   * @param {SentienceEngineState | null} state
   * @returns {SentienceEngineHandle}
   */
  function remote(scope, state) {
    /** @type {chrome.runtime.Port | null} */
    let port = null;
    /** @type {((answer: {json: string, ok: boolean}) => void) | null} */
    let answered = null;
    /** @type {string[]} */
    let parts = [];
    /** @param {string} error */
    const failed = (error) => ({ json: JSON.stringify({ status: 'error', error }), ok: false });
    const open = () => {
      const p = chrome.runtime.connect({ name: COMPUTE_PORT });
      p.onMessage.addListener((/** @type {any} */ msg) => {
        if (msg.type === PORT_MSG.CHUNK) parts.push(msg.data);
        else if (msg.type === PORT_MSG.DONE && answered) {
          const done = answered;
          answered = null;
          done({ json: parts.join(''), ok: msg.ok === true });
          parts = [];
          if (msg.awaitingScreenshot !== true) p.disconnect();
        }
      });
      p.onDisconnect.addListener(() => {
        if (answered) answered(failed('the service worker closed the connection before answering'));
        answered = null;
      });
      return p;
    };
    /** @returns {Promise<{json: string, ok: boolean}>} */
    const reply = () => new Promise((resolve) => (answered = resolve));
    return {
      snapshot: async (walk, options, tracking, frames) => {
        try {
          port = open();
        } catch (e) {
          return failed(`extension unavailable: ${/** @type {Error} */ (e).message}`);
        }
        const answer = reply();
        port.postMessage({ type: PORT_MSG.BEGIN, meta: Array.from(walk.meta), options, tracking: Array.from(tracking), frames, scope });
        for (let i = 0; i < walk.nums.length; i += CHUNK) port.postMessage({ type: PORT_MSG.NUMS, data: Array.from(walk.nums.subarray(i, i + CHUNK)) });
        for (let i = 0; i < walk.strs.length; i += CHUNK) port.postMessage({ type: PORT_MSG.STRS, data: walk.strs.slice(i, i + CHUNK) });
        port.postMessage({ type: PORT_MSG.END });
        const out = await answer;
        if (state) {
          state.behind.push({ walk, options, tracking });
          if (state.behind.length > HISTORY) state.behind.shift();
          if (ready) localOf(ready, state);
        }
        return out;
      },
      attachScreenshot: async (dataUrl) => {
        if (!port) return failed('no snapshot is waiting for a screenshot').json;
        const answer = reply();
        try {
          for (let i = 0; i < dataUrl.length; i += CHUNK) port.postMessage({ type: PORT_MSG.ATTACH, data: dataUrl.slice(i, i + CHUNK) });
          port.postMessage({ type: PORT_MSG.ATTACH, data: null });
        } catch (e) {
          return failed(`the service worker is gone: ${/** @type {Error} */ (e).message}`).json;
        }
        return (await answer).json;
      },
    };
  }

  /**
   * Checks options before any work, when the engine here is loaded: the
   * error message, '' when fine, or null when it cannot tell yet (the
   * engine that computes the snapshot then reports bad options).
   * @param {string} options
   * @returns {string | null}
   */
  function checkOptions(options) {
    return ready ? ready.check_options(options) : null;
  }

  return { load, loaded, prepare, warm, newState, engineFor, checkOptions };
})();
