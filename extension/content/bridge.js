// @ts-check
// The isolated world's bridge: the table of operations and the ports they
// arrive by. Every document loads this file (with start-protocol.js, the
// part of protocol.js read here and in trust.js before the first call, and
// trust.js) at document_start, and nothing else: the walker, the engine,
// the query module, the operations and the whole protocol are the content
// runtime (protocol.js CONTENT_RUNTIME, bundled by pkg-scripts/build.sh), which the
// service worker injects into this document on its first call of the API
// (`runtime()` below; docs/architecture.md "Loaded on first use"). A page
// that never calls the API pays for this file and the MAIN-world facade
// only (docs/benchmarks.md "What being installed costs").
//
// The ports:
// - the MAIN-world facade (content/main-world.js): events with secret
//   names, handed over at document_start by one synchronous event;
// - the extension's own callers: runtime messages (MSG.CALL) from the
//   service worker (agent runs, frames, readiness);
// - a debugger (CDP) in this world: SentienceTrusted.call;
// - a parent frame's snapshot: its nonce, posted to this window.
// Who may do what (the "page" and "full" scopes) is decided here, per
// port, and passed on with each call (content/trust.js).
'use strict';

// This document's identity, drawn here (not in the runtime) so that `ping`
// can name the document without loading the runtime: frameIds and tab ids
// survive navigations, documents do not. The runtime's frames.js tags its
// walks and routes with it; an agent's element ids are tied to it.
globalThis.SentienceDocument = Object.freeze({ token: crypto.randomUUID() });

(() => {
  /** Who is asking (content/trust.js). @typedef {'full' | 'page'} Scope */

  // Names, operations and limits: extension/protocol.js.
  const { FACADE_TAG, MSG, FRAMES, NONCE_RE } = SentienceProtocol;
  const DOC_TOKEN = SentienceDocument.token;

  // ------------------------------------------------------- the runtime
  // Loaded once per document, on the first call that needs it: the service
  // worker injects CONTENT_RUNTIME into this document alone (it knows the
  // sender's tab, frame and document, which no page can forge), and tells
  // which of this frame's child frames failed to load (a snapshot skips
  // those without asking). Injection needs no page CSP allowance: it is
  // the extension's own script in its own world.
  /** @type {Promise<void> | null} */
  let loading = null;
  let loaded = false;
  /** @type {number | null} this frame's frameId, when told before the runtime loaded */
  let frameId = null;

  function runtime() {
    if (!loading) {
      loading = chrome.runtime.sendMessage({ type: MSG.RUNTIME_LOAD, frames: document.querySelector('iframe, frame') !== null }).then((/** @type {any} */ answer) => {
        if (typeof globalThis.SentienceSnapshots !== 'object') {
          loading = null; // try again on the next call
          throw new Error(`the extension could not load its content runtime here: ${answer && answer.error ? answer.error : 'no answer from the service worker'}`);
        }
        loaded = true;
        if (frameId !== null) SentienceFrames.learnFrameId(frameId);
        if (answer && Array.isArray(answer.dead)) SentienceFrames.learnDeadFrames(answer.dead);
      });
      // (Registered once the request is on its way: the worker injects the
      // runtime meanwhile.)
      listenToExtension();
    }
    return loading;
  }

  // Trusted origins' documents load the runtime and the engine as the page
  // loads, and warm the engine once it is idle, before any call
  // (content/preload.js, registered by runtime-preload.js).
  /** @type {any} */ (globalThis).SentiencePreload = (/** @type {'load' | 'warm'} */ stage) =>
    runtime().then(
      () => {
        if (stage === 'warm') return SentienceFrames.askDeadFrames().then(() => SentienceEngines.warm());
        SentienceTrust.startReads();
        return SentienceEngines.prepare();
      },
      () => {},
    );

  // ------------------------------------------------------- the operations
  /**
   * A reply: snapshot's JSON text (passed on unparsed), or any other value.
   * @typedef {{json: string, value?: undefined} | {value: unknown, json?: undefined}} Reply
   */
  /**
   * Every operation answered here, by name (frame_walk, a parent frame's
   * request, is answered by the runtime listener below), each by the
   * runtime file that does it. `ping` needs no runtime: it says this
   * document has our content script (frame-liveness.js, run/tools.js).
   * @type {Record<Exclude<SentienceOp, 'frame_walk'>, (args: any, via: any, scope: Scope) => Promise<Reply>>}
   */
  const OPERATIONS = {
    // `doc`: this document's token (actions given it refuse to run on
    // another document: an agent's ids belong to the page they came from).
    ping: async () => ({ value: { ready: true, doc: DOC_TOKEN, url: location.href, state: document.readyState } }),
    snapshot: async (args, via, scope) => ({ json: await SentienceSnapshots.snapshot(args, via, scope) }),
    page_info: async (args) => ({ value: await SentiencePageOps.pageInfo(args || {}) }),
    highlight: async (args) => ({ value: await SentiencePageOps.highlight(args || {}) }),
    show_overlay: async (args, _via, scope) => ({ value: SentiencePageOps.showOverlay(args, scope) }),
    clear_overlay: async () => ({ value: { status: 'success', cleared: SentienceOverlay.clear() } }),
    query: async (args, via, scope) => ({ value: await SentienceQueries.run(args || {}, false, via, scope) }),
    find: async (args, via, scope) => ({ value: await SentienceQueries.run(args || {}, true, via, scope) }),
    format: async (args, via, scope) => ({ value: await SentienceQueries.format(args, via, scope) }),
    click: async (args, _via, scope) => ({ value: await SentiencePageOps.act('click', args, scope) }),
    type: async (args, _via, scope) => ({ value: await SentiencePageOps.act('type', args, scope) }),
    press: async (args, _via, scope) => ({ value: await SentiencePageOps.act('press', args, scope) }),
    scroll: async (args, _via, scope) => ({ value: await SentiencePageOps.act('scroll', args, scope) }),
    select: async (args, _via, scope) => ({ value: await SentiencePageOps.act('select', args, scope) }),
    hover: async (args, _via, scope) => ({ value: await SentiencePageOps.act('hover', args, scope) }),
  };
  // Operations that answer {status, …}, and those the page's facade may ask
  // for (main-world.js): protocol.js OPS says which is which.
  const STATUS_OPS = new Set(SentienceProtocol.STATUS_OPS);
  const FACADE_OPS = new Set(SentienceProtocol.FACADE_OPS);

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
    if (typeof op !== 'string' || !Object.prototype.hasOwnProperty.call(OPERATIONS, op)) return { value: { success: false, error: `unknown operation ${op}`, outcome: 'none' } };
    const name = /** @type {keyof typeof OPERATIONS} */ (op);
    if (name !== 'ping') await runtime();
    return OPERATIONS[name](args, via, scope);
  }

  /**
   * The error reply of an operation that failed (threw).
   * @param {unknown} op
   * @param {unknown} err
   * @returns {Reply}
   */
  function failure(op, err) {
    const error = String(err && typeof err === 'object' && 'message' in err ? err.message : err);
    if (op === 'snapshot') return { json: JSON.stringify({ status: 'error', error: `snapshot failed: ${error}` }) };
    if (typeof op === 'string' && STATUS_OPS.has(op)) return { value: { status: 'error', error: `${op} failed: ${error}` } };
    return { value: { success: false, error, outcome: 'none' } };
  }

  // The scope of the facade's last snapshot: window.sentience_registry
  // resolves frame elements through its routes.
  /** @type {Scope} */
  let facadeScope = 'page';

  // window.sentience_registry[id]: the element itself, or for an element of
  // a child frame the key that frame's own registry resolves
  // (SentienceFrames.registryHop) with the frame's index in this window's
  // frame list (`window[i]`, which no page script can redefine), which the
  // facade reads there. Elements of cross-origin frames (or below one)
  // cannot be handed to the page: the registry gives undefined. Before the
  // runtime: no snapshot, no element.
  /**
   * @param {number} id
   * @param {string} responseName
   */
  function resolveForFacade(id, responseName) {
    if (!loaded) return;
    const el = SentienceSnapshots.registered(id);
    if (el && el.isConnected) {
      el.dispatchEvent(new CustomEvent(responseName, { bubbles: false, composed: true }));
      return;
    }
    const hop = SentienceFrames.forwardOf(id) || SentienceFrames.registryHop(id, facadeScope);
    const win = hop && /** @type {HTMLIFrameElement} */ (hop.el).contentWindow;
    if (!hop || !win) return;
    for (let i = 0; i < window.length; i++) {
      if (window[i] === win) {
        document.dispatchEvent(new CustomEvent(responseName, { detail: { frame: i, key: hop.next } }));
        return;
      }
    }
  }

  // ------------------------------------------- the MAIN-world facade's events
  // The handshake. manifest.json loads this file before the facade, both at
  // document_start (Chrome injects a run_at's scripts in manifest order,
  // whatever their world), so this capturing listener is on the document
  // before the facade runs, and the facade before any page script: the
  // first FACADE_TAG event is the facade's, dispatched synchronously with
  // the secret prefix of its event names, and no page listener exists yet
  // to see it. Only that one is taken (cancelled, so the facade knows) and
  // the listener removed; a later FACADE_TAG event can only be a page's
  // forgery and reaches nobody here. No port, no posted message: both cost
  // every page a task and a clone (docs/benchmarks.md "What being
  // installed costs").
  /** @type {{request: string, response: string, reply: string, call: string} | null} */
  let facadeNames = null;
  const SECRET_RE = /^sentience-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  /** @param {Event} event */
  function onFacadeInit(event) {
    event.stopImmediatePropagation();
    document.removeEventListener(FACADE_TAG, onFacadeInit, true);
    let secret = null;
    try {
      secret = /** @type {CustomEvent} */ (event).detail;
    } catch (e) {
      secret = null;
    }
    if (facadeNames || typeof secret !== 'string' || !SECRET_RE.test(secret)) return;
    const names = { request: `${secret}-request`, response: `${secret}-response`, reply: `${secret}-reply`, call: `${secret}-call` };
    facadeNames = names;
    event.preventDefault();
    listenToFacade(names);
  }
  document.addEventListener(FACADE_TAG, onFacadeInit, true);

  /**
   * A call of the facade: the secret `call` event, dispatched in the page's
   * task; the work starts after its first await, as the page's script has
   * finished. The answer is the secret `reply` event, which the facade
   * reads in the task it is dispatched in (main-world.js `answer`).
   * @param {any} msg
   */
  async function onFacadeCall(msg) {
    const names = facadeNames;
    if (!names || !msg || typeof msg.call !== 'number') return;
    /** @type {Reply} */
    let reply;
    try {
      if (!FACADE_OPS.has(msg.op)) throw new Error(`unknown operation ${msg.op}`);
      // The allow-list is read while the runtime loads.
      if (!loaded) runtime().catch(() => {});
      const scope = (await SentienceTrust.pageTrusted()) ? 'full' : 'page';
      reply = await handle(msg.op, msg.args, undefined, scope);
      if (msg.op === 'snapshot') facadeScope = scope;
    } catch (err) {
      reply = failure(msg.op, err);
    }
    document.dispatchEvent(new CustomEvent(names.reply, { detail: { call: msg.call, ...reply } }));
  }

  // Listens for the facade's secret events (once, on the handshake).
  /** @param {{request: string, response: string, reply: string, call: string}} names */
  function listenToFacade(names) {
    // Registry resolution: answered synchronously by dispatching the
    // secret response event on the element itself.
    document.addEventListener(
      names.request,
      (e) => {
        e.stopImmediatePropagation();
        resolveForFacade(Number(/** @type {CustomEvent} */ (e).detail), names.response);
      },
      true,
    );
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
        if (!msg || typeof msg.call !== 'number') return; // not taken: the facade answers the error
        e.preventDefault();
        onFacadeCall(msg);
      },
      true,
    );
  }

  // ------------------------------------------------ a parent frame's nonce
  // A parent frame's snapshot posts this window a single-use nonce
  // (content/frames.js). Capturing and registered at document_start, so no
  // page listener sees our message first; stopped here so none sees it at
  // all. With the runtime loaded, the frame walks at once and sends the
  // walk with its claim; before it, it claims at once (so the service
  // worker knows which frame holds the iframe) and loads the runtime, and
  // the service worker asks for the walk (`frame_walk` below).
  window.addEventListener(
    'message',
    (event) => {
      const d = event.data;
      if (!d || typeof d !== 'object' || d.__sentience !== FRAMES.TAG) return;
      event.stopImmediatePropagation();
      if (window.parent === window || event.source !== window.parent) return;
      if (typeof d.nonce !== 'string' || !NONCE_RE.test(d.nonce)) return;
      if (loaded) {
        SentienceFrames.onNonce(d);
        return;
      }
      listenToExtension();
      chrome.runtime.sendMessage({ type: MSG.FRAME_CLAIM, nonce: d.nonce }).then((/** @type {any} */ r) => learnFrameId(r && r.frameId), () => {});
      runtime().catch(() => {});
    },
    true,
  );

  /** @param {unknown} id */
  function learnFrameId(id) {
    if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return;
    frameId = id;
    if (loaded) SentienceFrames.learnFrameId(id);
  }

  // ------------------------------------------ automation through a debugger
  // The full scope for whoever holds the browser's debugging connection
  // (CDP `Runtime.evaluate` in this isolated world, named "Sentience"):
  // the tool server's sessions, Playwright/Puppeteer through a CDP session.
  // Pages cannot reach this world's globals; a debugger could do anything
  // anyway. Resolves to what the page API would (snapshot: the contract
  // object), e.g. `SentienceTrusted.call('snapshot', {limit: 50})`.
  /** @type {any} */ (globalThis).SentienceTrusted = Object.freeze({
    /**
     * @param {string} op
     * @param {unknown} args
     */
    call: async (op, args) => {
      let reply;
      try {
        reply = await handle(op, args === undefined ? null : args, undefined, 'full');
      } catch (err) {
        reply = failure(op, err);
      }
      return reply.json !== undefined ? JSON.parse(reply.json) : reply.value;
    },
  });

  // ------------------------------------------ the extension's own callers
  // The service worker (agent runs, tests through the extension, frames)
  // calls the same operations; only the extension can send these messages.
  // The listener is registered on this document's first use of runtime
  // messaging (runtime() above, a parent frame's nonce), or when the
  // service worker finds no receiver here and runs SentienceListen() in
  // this world (document-messages.js): building `chrome.runtime` costs a
  // page ~0.3 ms at document_start (docs/benchmarks.md "What being
  // installed costs"). Pages cannot reach this world's globals.
  let listening = false;
  function listenToExtension() {
    if (listening) return;
    listening = true;
    chrome.runtime.onMessage.addListener(onExtensionMessage);
  }
  /** @type {any} */ (globalThis).SentienceListen = listenToExtension;

  /**
   * @param {any} msg
   * @param {chrome.runtime.MessageSender} sender
   * @param {(response?: any) => void} sendResponse
   */
  function onExtensionMessage(msg, sender, sendResponse) {
    if (sender.id !== chrome.runtime.id || !msg || msg.type !== MSG.CALL) return false;
    // A parent frame's snapshot asks for our raw walk (only through the
    // service worker, never from the page's facade).
    if (msg.op === 'frame_walk') {
      learnFrameId(msg.frameId);
      // On failure the driver lists the frame as unreachable.
      runtime().then(
        () => {
          try {
            sendResponse({ value: SentienceSnapshots.walkForParent(msg.depth, SentienceFrames.budgetFor(msg.scope)) });
          } catch (e) {
            sendResponse({ value: null });
          }
        },
        () => sendResponse({ value: null }),
      );
      return true;
    }
    handle(msg.op, msg.args, msg.via).then(sendResponse, (err) => sendResponse(failure(msg.op, err)));
    return true;
  }
})();
