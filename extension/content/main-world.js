// @ts-check
// MAIN-world facade: defines window.sentience and window.sentience_registry
// for page scripts (and Playwright/Puppeteer/CDP `evaluate`).
//
// It holds no logic: every call is forwarded to the isolated content script
// (bridge.js) as an event with a secret per-page name, read in the same
// task (no wait behind the page's tasks), and answered the same way. The
// names are handed to the bridge at document_start, before any page script
// runs, by one synchronous event (see the handshake below). The page can
// call the API (that is its purpose) but can neither forge the bridge's
// answers nor read the answers to anyone else's requests: they travel as
// events whose names only this closure and the bridge know.
//
// Everything this file uses from the page's realm is captured now, at
// document_start, so a page that later patches Array.prototype.map,
// JSON.parse, CustomEvent or EventTarget.prototype.dispatchEvent cannot
// break or mislead it. Only what a call needs is captured: each DOM
// interface read here is one the browser builds for this page on first
// use, which every page pays for (docs/benchmarks.md "What being
// installed costs").
(() => {
  'use strict';
  // The protocol's constants (content/facade-protocol.js, generated from
  // extension/protocol.js and run just before this file in this world):
  // taken, and the global removed before any page script runs.
  const protocol = globalThis.SentienceFacadeProtocol;
  delete (/** @type {{SentienceFacadeProtocol?: unknown}} */ (/** @type {unknown} */ (globalThis))).SentienceFacadeProtocol;
  const existing = /** @type {{sentience?: {__sentience?: boolean}}} */ (/** @type {unknown} */ (window)).sentience;
  if (existing && existing.__sentience) return;

  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const create = Object.create;
  const jsonParse = JSON.parse;
  const PromiseCtor = Promise;
  const ProxyCtor = Proxy;
  const CustomEventCtor = CustomEvent;
  const setTimeoutFn = setTimeout;
  const clearTimeoutFn = clearTimeout;
  const cloneOf = structuredClone;
  const addListener = EventTarget.prototype.addEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const stopImmediate = Event.prototype.stopImmediatePropagation;
  const composedPath = Event.prototype.composedPath;
  // (The getter exists in every browser this runs in.)
  const detailOf = /** @type {() => any} */ (/** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(CustomEvent.prototype, 'detail')).get);
  const reflectGet = Reflect.get;
  const isInteger = Number.isInteger;
  const stringOf = String;
  const doc = document;
  const windowProxy = window;

  const FACADE_TAG = protocol.FACADE_TAG;
  const CALL_TIMEOUT_MS = protocol.FACADE_CALL_TIMEOUT_MS;
  const STATUS_OPS = protocol.STATUS_OPS;

  const pending = create(null);
  let nextCall = 1;
  // The secret event names, drawn now (no page script has run yet, so
  // crypto is the browser's) and handed to the bridge below.
  const secret = `sentience-${crypto.randomUUID()}`;
  const names = freeze({ request: `${secret}-request`, response: `${secret}-response`, reply: `${secret}-reply`, call: `${secret}-call` });
  // Whether this document has called the API yet: the listeners below are
  // added on the first call, so a page that never calls pays only for the
  // handshake (docs/benchmarks.md "What being installed costs").
  let started = false;
  /** @type {number[]} */
  let lastIds = [];

  // An answer of the bridge: the secret `reply` event it dispatches on the
  // document, read in the same task (a port message would wait in the
  // page's task queue, behind the page's own tasks and a rendering update:
  // after a page load, 0.3–4 ms; docs/benchmarks.md "Real pages").
  /** @param {any} msg */
  function answer(msg) {
    if (!msg || typeof msg !== 'object') return;
    const call = pending[msg.call];
    if (!call) return;
    delete pending[msg.call];
    clearTimeoutFn(call.timer);
    let value;
    try {
      value = typeof msg.json === 'string' ? jsonParse(msg.json) : msg.value;
    } catch (e) {
      value = { status: 'error', error: 'sentience: unreadable answer from the extension' };
    }
    if (call.op === 'snapshot' && value && value.status === 'success' && value.elements) {
      const ids = [];
      for (let i = 0; i < value.elements.length; i++) ids[i] = value.elements[i].id;
      lastIds = ids;
    }
    call.resolve(value);
  }
  /** @param {Event} event */
  function onReply(event) {
    apply(stopImmediate, event, []);
    answer(apply(detailOf, event, []));
  }

  function start() {
    if (started) return;
    started = true;
    apply(addListener, doc, [names.response, onResolved, true]);
    apply(addListener, doc, [names.reply, onReply, true]);
  }

  // The handshake, one synchronous event: the bridge (manifest.json loads
  // it first, in the isolated world) listens for FACADE_TAG on the
  // document, capturing, takes only the first such event (this one: no
  // page script has run yet, so no page listener can see it) and cancels
  // it to say so. It then listens for the names' events, and ignores any
  // later FACADE_TAG event, which can only be a page's forgery. Not taken:
  // no bridge in this document (or a forgery got there first, which no page
  // script can do), so calls answer an error at once.
  const bridged = !apply(dispatch, doc, [new CustomEventCtor(FACADE_TAG, { cancelable: true, detail: secret })]);

  // snapshot, overlays, query and format answer {status, …}; actions
  // {success, …} (protocol.js OPS). A loop over the frozen array, not
  // includes() or a Set: the page may patch their prototypes.
  /**
   * @param {string} op
   * @param {string} error
   */
  function failure(op, error) {
    for (let i = 0; i < STATUS_OPS.length; i++) if (STATUS_OPS[i] === op) return { status: 'error', error };
    return { success: false, error, outcome: 'none' };
  }

  // format(snapshot?, {max_tokens}) also accepts format({max_tokens}): an
  // object without `elements` is options. Reading the page's objects may run
  // the page's getters; whatever they throw becomes an error value.
  /**
   * @param {any} snapshot
   * @param {any} options
   * @returns {{args: {snapshot: unknown, max_tokens: unknown}, error?: undefined} | {error: string, args?: undefined}}
   */
  function formatArgs(snapshot, options) {
    try {
      if (options === undefined && snapshot !== null && typeof snapshot === 'object' && !('elements' in snapshot)) {
        options = snapshot;
        snapshot = undefined;
      }
      const maxTokens = options !== null && typeof options === 'object' ? options.max_tokens : undefined;
      return { args: { snapshot: snapshot === undefined ? null : snapshot, max_tokens: maxTokens === undefined ? null : maxTokens } };
    } catch (e) {
      return { error: `invalid format arguments: ${e instanceof Error ? e.message : e}` };
    }
  }

  // Every API call resolves (never rejects): errors come back as values, as
  // docs/contracts/snapshot.md §8 prescribes for snapshot().
  /**
   * @param {string} op one of protocol.js FACADE_OPS
   * @param {unknown} args
   * @returns {Promise<any>}
   */
  function call(op, args) {
    return new PromiseCtor((resolve) => {
      const id = nextCall++;
      const timer = setTimeoutFn(() => {
        delete pending[id];
        resolve(failure(op, `sentience: no answer from the extension after ${CALL_TIMEOUT_MS} ms`));
      }, CALL_TIMEOUT_MS);
      pending[id] = { resolve, timer, op };
      start();
      // The secret call event reaches the bridge in this task; its detail
      // is cloned into the bridge's world (as a message would be), and the
      // bridge cancels the event when it took the call. Not taken: the
      // arguments could not be cloned (functions, DOM nodes, proxies: the
      // bridge reads null), or there is no bridge.
      let taken = false;
      let error = 'sentience: the extension is not listening in this document';
      try {
        taken = bridged && !apply(dispatch, doc, [new CustomEventCtor(names.call, { cancelable: true, detail: { call: id, op, args } })]);
        if (!taken) cloneOf(args);
      } catch (e) {
        // A DataCloneError: the page passed functions, DOM nodes or the like.
        error = `invalid ${op} arguments: ${e instanceof Error ? e.message : e}`;
      }
      if (!taken) {
        delete pending[id];
        clearTimeoutFn(timer);
        resolve(failure(op, error));
      }
    });
  }

  // window.sentience_registry[id] resolves synchronously: a CustomEvent with a
  // secret name goes to the bridge, which answers by dispatching another
  // secret event on the element itself; our capturing listener reads its
  // target. Only the isolated world holds element references. composedPath()
  // rather than target: it reaches into open shadow roots (the page may see
  // those) but stops at a closed root's host (the page may not).
  /** @type {unknown} */
  let resolved;
  // An answer with a detail {frame, key} names an element of a (same-origin)
  // child frame, `window[frame]`, by a key that frame's own registry
  // resolves: a frame-local id, or a key that frame forwards to its own
  // child (extension/content/bridge.js resolveForFacade, frames.js
  // registryHop). A window's indexed frames cannot be redefined by the page.
  /** @param {Event} event */
  function onResolved(event) {
    apply(stopImmediate, event, []);
    const hop = apply(detailOf, event, []);
    if (hop !== null && typeof hop === 'object') {
      try {
        const win = isInteger(hop.frame) ? reflectGet(windowProxy, hop.frame) : undefined;
        resolved = win ? reflectGet(/** @type {any} */ (win).sentience_registry, stringOf(hop.key)) : undefined;
      } catch (e) {
        resolved = undefined;
      }
      return;
    }
    resolved = apply(composedPath, event, [])[0];
  }
  /** @param {number} id */
  function resolveElement(id) {
    start();
    resolved = undefined;
    apply(dispatch, doc, [new CustomEventCtor(names.request, { detail: id })]);
    const el = resolved;
    resolved = undefined;
    return el;
  }
  /** @param {string | symbol} key */
  function asId(key) {
    if (typeof key !== 'string') return null;
    const n = +key;
    return isInteger(n) && n >= 0 && stringOf(n) === key ? n : null;
  }
  const registry = new ProxyCtor(create(null), {
    get(_target, key) {
      if (key === 'length') {
        let max = -1;
        for (let i = 0; i < lastIds.length; i++) if (lastIds[i] > max) max = lastIds[i];
        return max + 1;
      }
      const id = asId(key);
      return id === null ? undefined : resolveElement(id);
    },
    has(_target, key) {
      const id = asId(key);
      return id !== null && resolveElement(id) !== undefined;
    },
    ownKeys() {
      const keys = [];
      for (let i = 0; i < lastIds.length; i++) keys[i] = stringOf(lastIds[i]);
      return keys;
    },
    getOwnPropertyDescriptor(_target, key) {
      const id = asId(key);
      const el = id === null ? undefined : resolveElement(id);
      return el === undefined ? undefined : { value: el, enumerable: true, configurable: true, writable: false };
    },
    set() {
      return false;
    },
    deleteProperty() {
      return false;
    },
    defineProperty() {
      return false;
    },
  });

  /** @typedef {any} Options (validated by the engine: sentience.d.ts SnapshotOptions) */
  const api = freeze({
    __sentience: true,
    /** docs/contracts/snapshot.md §2: resolves to the contract's snapshot object, or
     * {status:"error", error}. */
    snapshot: (/** @type {Options} */ options) => call('snapshot', options === undefined ? null : options),
    /** Clicks element `id` of the last snapshot with real pointer/mouse events. */
    click: (/** @type {number} */ id) => call('click', { id }),
    /** Replaces the value of element `id` by `text`, key by key (or picks the option of a <select>). */
    type: (/** @type {number} */ id, /** @type {string} */ text) => call('type', { id, text }),
    /** Presses `key` (KeyboardEvent.key, e.g. "Enter", "Tab", "a") on the focused element. */
    press: (/** @type {string} */ key) => call('press', { key }),
    /** Chooses an option of a <select>, ARIA listbox or combobox by value or text. */
    select: (/** @type {number} */ id, /** @type {string} */ value) => call('select', { id, value }),
    /** Scrolls element `id` into view, or the page by `{dx, dy}` pixels. */
    scroll: (/** @type {number | {dx?: number, dy?: number}} */ target) => call('scroll', typeof target === 'object' && target !== null ? { dx: target.dx, dy: target.dy } : { id: target }),
    /**
     * Numbered boxes (set-of-mark) over the last snapshot's elements, or over
     * `ids`, for `duration` ms (absent/0: until clearOverlay()). Resolves to
     * {status: "success", shown, unknown: [ids not drawn]} or {status: "error", error}.
     */
    showOverlay: (/** @type {Options} */ options) => call('show_overlay', options === undefined ? null : options),
    /** Removes the boxes of showOverlay(): {status: "success", cleared: n}. */
    clearOverlay: () => call('clear_overlay', null),
    /** Elements of the last snapshot matching `q` (e.g. "role=button text~'sign in'"), most important first. */
    query: (/** @type {string} */ q) => call('query', { query: q }),
    /** The first element query(q) would give, or null. */
    find: (/** @type {string} */ q) => call('find', { query: q }),
    /** Compact text listing for LLM prompts of `snapshot` (default: the last one), within max_tokens (default 1000). */
    format: (/** @type {any} */ snapshot, /** @type {Options} */ options) => {
      const { args, error } = formatArgs(snapshot, options);
      return error === undefined ? call('format', args) : new PromiseCtor((resolve) => resolve({ status: 'error', error }));
    },
    version: '0.1.0',
  });

  defineProperty(window, 'sentience', { value: api, writable: false, configurable: false, enumerable: false });
  defineProperty(window, 'sentience_registry', { value: registry, writable: false, configurable: false, enumerable: false });
})();
