// @ts-check
// The extension's protocol, in one place: every operation, message, port
// and storage name its parts exchange, the limits they share, and the
// validation of the messages the UI sends (docs/architecture.md,
// "Extension protocol").
//
// Who talks to whom:
// - page scripts → main-world.js (window.sentience) → bridge.js as events
//   with secret names: the FACADE operations; the handshake that hands the
//   names over is the event FACADE_TAG;
// - service worker ↔ content scripts (runtime messages, MSG): operations
//   (MSG.CALL), loading the content runtime on a document's first call
//   (MSG.RUNTIME_LOAD, CONTENT_RUNTIME), query/format and screenshots for
//   pages whose CSP forbids WebAssembly, iframes' walks and routed actions
//   (frame-relay.js);
// - bridge.js → service worker over the COMPUTE_PORT runtime port: the
//   walker's raw data in chunks (PORT_MSG), the snapshot back the same way;
// - side panel / options / `sentience run` (through an extension page) →
//   service worker: the UI messages, validated by validateUiMessage().
//
// A classic script with no imports and no top-level declarations, loaded
// everywhere those parts run: as the first file of the content runtime a
// document loads on its first call (pkg-scripts/build.sh), by the service
// worker's importScripts(), and by the side panel and options pages. A module service worker would load it the same
// way with `import './protocol.js';` (it only assigns
// globalThis.SentienceProtocol). The side panel and options pages load it
// with a <script> tag.
// The page's MAIN world gets the part it needs from content/facade-protocol.js,
// and the isolated world, before the first call, from
// content/start-protocol.js, both generated from this file (Chrome injects
// a file once per frame, whatever the world; and every page pays for what
// its document_start scripts evaluate). Changing a value here changes it for every user; `tsc`
// (tests/tsconfig/) fails where a user names an operation this file does
// not define, and tests/unit/protocol.test.mjs where a user repeats a
// value instead of naming it, or the generated file is stale.
'use strict';

globalThis.SentienceProtocol = (() => {
  // ------------------------------------------------------------ operations
  // Every operation a content script answers (bridge.js), and how:
  //   facade: page scripts may call it through window.sentience;
  //   answers: 'status' ({status, …}: snapshot, overlays, query, format),
  //            'success' ({success, error?, outcome}: actions),
  //            'value' (anything else: the extension's own);
  //   routed:  the driver frame may send it on to the frame holding the
  //            element (frame-relay.js, docs/api.md "frames").
  const OPS = Object.freeze({
    snapshot: { facade: true, answers: 'status', routed: false },
    click: { facade: true, answers: 'success', routed: true },
    type: { facade: true, answers: 'success', routed: true },
    press: { facade: true, answers: 'success', routed: true },
    select: { facade: true, answers: 'success', routed: false },
    scroll: { facade: true, answers: 'success', routed: true },
    // Pointer over an element (an agent's hover, through the service worker).
    hover: { facade: false, answers: 'success', routed: true },
    show_overlay: { facade: true, answers: 'status', routed: false },
    clear_overlay: { facade: true, answers: 'status', routed: false },
    query: { facade: true, answers: 'status', routed: false },
    find: { facade: true, answers: 'status', routed: false },
    format: { facade: true, answers: 'status', routed: false },
    // The extension's own (agent runs, frames, readiness).
    ping: { facade: false, answers: 'value', routed: false },
    page_info: { facade: false, answers: 'value', routed: true },
    // {id, label} for 1.5 s; {id, label, hold: true} until {release: true}
    // (an approval in careful mode points at its element while it waits).
    highlight: { facade: false, answers: 'success', routed: true },
    // A parent frame's snapshot asks a child frame for its raw walk.
    frame_walk: { facade: false, answers: 'value', routed: false },
  });
  /** @param {(spec: {facade: boolean, answers: string, routed: boolean}) => boolean} keep */
  const opsWhere = (keep) => Object.freeze(Object.keys(OPS).filter((op) => keep(OPS[/** @type {keyof typeof OPS} */ (op)])));
  // Plain frozen arrays: main-world.js reads them by index in the page's
  // realm, where Set and Array methods may be patched by the page.
  const FACADE_OPS = opsWhere((o) => o.facade);
  const STATUS_OPS = opsWhere((o) => o.answers === 'status');
  const ROUTED_OPS = opsWhere((o) => o.routed);

  // ------------------------------------------------------ runtime messages
  // `type` of every chrome.runtime / chrome.tabs message.
  const MSG = Object.freeze({
    // service worker → content script: run an operation ({op, args, via}).
    CALL: 'sentience-call',
    // content script → service worker.
    QUERY: 'sentience-query', // {op: 'query' | 'format', snapshot, …}: the query module there
    SCREENSHOT: 'screenshot', // {format, quality, annotate}
    FRAME_CLAIM: 'frame-claim', // {nonce, data?}: this frame received the nonce
    FRAME_WALK: 'frame-walk', // {nonce, timeoutMs, depth, deadlineMs, scope, url, stale, siblings}
    FRAME_CALL: 'frame-call', // {frameId, op, args}: an operation routed to a child frame
    FRAMES_DEAD: 'frames-dead', // {urls}: the URLs of this frame's child frames that failed to load
    RUNTIME_LOAD: 'runtime-load', // {frames}: load CONTENT_RUNTIME into this document → {dead: URLs of its child frames that failed to load (asked when `frames`)} or {error}
    // extension pages → service worker (validated by validateUiMessage).
    RUN_START: 'run-start',
    RUN_CANCEL: 'run-cancel',
    RUN_ANSWER: 'run-answer',
    RUN_PAUSE: 'run-pause', // {runId}: stop after the current step, keep the run
    RUN_RESUME: 'run-resume', // {runId}
    RUNS_CLEAR: 'runs-clear', // the history: every finished run
    TEST_CONNECTION: 'test-connection', // {serverUrl, apiKey?} → SentienceServerStatus
    // extension pages → service worker: the MCP link (mcp/link.js).
    MCP_PAIR: 'mcp-pair', // {code: "PORT-TOKEN"}
    MCP_UNPAIR: 'mcp-unpair',
    MCP_SHARE: 'mcp-share', // {tabId, shared}
    MCP_STATUS: 'mcp-status',
    // service worker → the banner in a shared tab: {on}.
    MCP_BANNER: 'mcp-banner',
  });

  // What a document loads on its first call of the API, injected by the
  // service worker into that document alone (pkg-scripts/build.sh bundles
  // it: the walker, frames, the engine's loader, the operations).
  const CONTENT_RUNTIME = 'pkg/sentience_content.js';
  // The content script the service worker registers for trusted origins'
  // documents, which load the runtime before the first call (runtime-preload.js).
  const PRELOAD_SCRIPT_ID = 'sentience-preload';

  // The port of the service worker's engine (content/engine.js → service
  // worker: pages whose CSP forbids WebAssembly, and a document's first
  // snapshot while its own engine loads) and the `type` of its messages, in
  // order: begin, nums…, strs…, end from the page; chunk…, done {ok,
  // awaitingScreenshot} back; then, when the options asked for a
  // screenshot, attach (its data URL in chunks, then attach with none) and
  // chunk…, done back again.
  const COMPUTE_PORT = 'sentience-compute';
  const PORT_MSG = Object.freeze({ BEGIN: 'begin', NUMS: 'nums', STRS: 'strs', END: 'end', CHUNK: 'chunk', DONE: 'done', ATTACH: 'attach' });
  // Characters or numbers per runtime message (a 50k-element page exceeds
  // what one message may carry).
  const CHUNK = 8 * 1024 * 1024;

  // ------------------------------------------------- facade (MAIN world)
  // The type of the handshake's event: main-world.js dispatches it on the
  // document at document_start, with the secret prefix of its event names
  // as its detail, and bridge.js, loaded just before it, takes the first.
  const FACADE_TAG = 'sentience/1';
  // A facade call not answered by then resolves to an error value.
  const FACADE_CALL_TIMEOUT_MS = 60000;

  // ---------------------------------------------------------------- frames
  // Limits of a snapshot's walk into iframes (docs/api.md "frames"), shared
  // by the driver (content/frames.js) and the relay (frame-relay.js). The
  // option's timeouts are the engine's (options.rs), read from wire.js
  // (FRAME_TIMEOUT_MS, FRAME_MAX_TIMEOUT_MS).
  const FRAMES = Object.freeze({
    TAG: 'sentience-frame/1', // the nonce's postMessage to a child frame
    MAX_DEPTH: 8, // deeper frames are skipped ("too_deep")
    MAX_FRAMES: 64, // frames per snapshot ("too_many")
    PHASE_TIMEOUTS: 3, // the whole frame phase ends after this many per-frame timeouts
  });
  // A frame's nonce: crypto.randomUUID().
  const NONCE_RE = /^[0-9a-f-]{36}$/;
  /**
   * A frame's document address as the driver and the browser's frame list
   * are matched on: without the fragment, and http/https alike (HSTS: a
   * framed http://www.facebook.com/… shows as https).
   * @param {string} url
   */
  const frameDocKey = (url) => url.split('#')[0].replace(/^https?:/, '');

  // ------------------------------------------------------------ agent runs
  const RUN_MODES = Object.freeze(['autonomous', 'careful']);
  const TASK_MAX_LENGTH = 10000;
  const TERMINAL_STATUSES = Object.freeze(['completed', 'error', 'cancelled']);
  const DEFAULT_SETTINGS = Object.freeze({ serverUrl: 'http://localhost:3131', apiKey: '', defaultMode: 'autonomous' });
  // How long "is the server there?" may take before the answer is "no": the
  // side panel's status and Start ask it first, so a server that is down is
  // said at once instead of after the run API's retries.
  const HEALTH_TIMEOUT_MS = 3000;
  // The history (finished run records, run/history.js): the most recent
  // runs are kept, within both limits (storage.local holds 10 MB in all).
  const HISTORY = Object.freeze({ MAX_RUNS: 100, MAX_BYTES: 2 * 1024 * 1024 });
  // chrome.storage keys, the service worker's alarm and notification ids.
  const STORAGE = Object.freeze({
    SETTINGS: 'settings', // storage.local: DEFAULT_SETTINGS' shape
    TRUSTED_ORIGINS: 'trusted_origins', // storage.local and .managed (content/trust.js)
    MANAGED_TRUSTED_ORIGINS: 'managed_trusted_origins', // storage.local: the policy's list as last read (policy-mirror.js)
    RUN_PREFIX: 'run:', // storage.local: `run:${runId}` → the run record (live, then history)
    SERVER_SEEN: 'server_seen', // storage.local: {at, url, version}: an agent server has answered once (the side panel's onboarding ends)
    MCP_PAIRING: 'mcp_pairing', // storage.local: {port, token} (mcp/link.js); never given to a page
    MCP_SHARED: 'mcp_shared_tabs', // storage.session: tab ids the agent may use (gone when the browser closes)
  });
  const RUNS_ALARM = 'sentience-runs';

  // --------------------------------------------------------- the MCP link
  // The service worker ↔ `sentience mcp --browser extension` WebSocket
  // (docs/mcp.md "The extension link"; the server's side and its message
  // shapes: crates/mcp/src/backend/extension/wire.rs, checked against these
  // names by tests/unit/mcp-link.test.mjs).
  const MCP = Object.freeze({
    PATH: '/extension',
    DEFAULT_PORT: 8777,
    // A pairing code as the server prints it: PORT-TOKEN.
    CODE_RE: /^(\d{1,5})-([abcdefghjkmnpqrstuvwxyz23456789]{20})$/,
    TYPES: Object.freeze({ HELLO: 'hello', WELCOME: 'welcome', REQUEST: 'request', RESULT: 'result', PING: 'ping', PONG: 'pong' }),
    METHODS: Object.freeze(['tabs', 'open_tab', 'close_tab', 'navigate', 'back', 'call', 'page_state', 'screenshot']),
    // Operations the agent may run in a shared tab (full scope).
    CALL_OPS: Object.freeze(['snapshot', 'click', 'type', 'press', 'select', 'scroll', 'hover', 'query', 'find', 'format', 'show_overlay', 'clear_overlay', 'page_info', 'ping']),
    CLOSE_BAD_TOKEN: 4001,
    CLOSE_REPLACED: 4002,
    ALARM: 'sentience-mcp',
  });
  const ASK_NOTIFICATION_PREFIX = 'ask:'; // `ask:${runId}`

  // ---------------------------------------------------- UI message checks
  /** @typedef {(msg: any) => string | null} Check */
  /** @type {Record<string, Check>} One check per UI message type: an error string, or null when well-formed. */
  const UI_CHECKS = {
    [MSG.RUN_START]: (msg) => {
      if (typeof msg.task !== 'string' || !msg.task.trim()) return 'run-start: task must be a non-empty string';
      if (msg.task.length > TASK_MAX_LENGTH) return `run-start: task is too long (${TASK_MAX_LENGTH.toLocaleString('en')} characters at most)`;
      if (!RUN_MODES.includes(msg.mode)) return `run-start: mode must be one of ${RUN_MODES.join(', ')}`;
      if (!Number.isInteger(msg.tabId)) return 'run-start: tabId must be an integer';
      if (msg.url !== undefined && !/^https?:\/\//.test(String(msg.url))) return 'run-start: url must be http(s)';
      return null;
    },
    [MSG.RUN_CANCEL]: (msg) => (typeof msg.runId === 'string' ? null : 'run-cancel: runId must be a string'),
    [MSG.RUN_PAUSE]: (msg) => (typeof msg.runId === 'string' ? null : 'run-pause: runId must be a string'),
    [MSG.RUN_RESUME]: (msg) => (typeof msg.runId === 'string' ? null : 'run-resume: runId must be a string'),
    [MSG.RUN_ANSWER]: (msg) => {
      if (typeof msg.runId !== 'string') return 'run-answer: runId must be a string';
      if (typeof msg.approved !== 'boolean') return 'run-answer: approved must be a boolean';
      if (msg.answer !== undefined && typeof msg.answer !== 'string') return 'run-answer: answer must be a string';
      return null;
    },
    [MSG.TEST_CONNECTION]: (msg) => {
      if (typeof msg.serverUrl !== 'string') return 'test-connection: serverUrl must be a string';
      if (msg.apiKey !== undefined && typeof msg.apiKey !== 'string') return 'test-connection: apiKey must be a string';
      return null;
    },
    [MSG.RUNS_CLEAR]: () => null,
    [MSG.MCP_PAIR]: (msg) => (typeof msg.code === 'string' && MCP.CODE_RE.test(msg.code.trim()) && Number(MCP.CODE_RE.exec(msg.code.trim())?.[1]) <= 65535 ? null : 'mcp-pair: the pairing code looks like 8777-abcdefghjkmnpqrstuvw (as `sentience mcp --browser extension` prints it)'),
    [MSG.MCP_UNPAIR]: () => null,
    [MSG.MCP_SHARE]: (msg) => {
      if (!Number.isInteger(msg.tabId)) return 'mcp-share: tabId must be an integer';
      if (typeof msg.shared !== 'boolean') return 'mcp-share: shared must be a boolean';
      return null;
    },
    [MSG.MCP_STATUS]: () => null,
  };

  /**
   * Returns an error string, or null when `msg` is a well-formed UI message.
   * @param {unknown} msg
   * @returns {string | null}
   */
  function validateUiMessage(msg) {
    if (!msg || typeof msg !== 'object' || typeof (/** @type {{type?: unknown}} */ (msg).type) !== 'string') return 'message must be an object with a type';
    const type = /** @type {{type: string}} */ (msg).type;
    const check = Object.prototype.hasOwnProperty.call(UI_CHECKS, type) ? UI_CHECKS[type] : null;
    return check ? check(msg) : `unknown message type ${type}`;
  }

  return Object.freeze({
    OPS,
    FACADE_OPS,
    STATUS_OPS,
    ROUTED_OPS,
    MSG,
    CONTENT_RUNTIME,
    PRELOAD_SCRIPT_ID,
    COMPUTE_PORT,
    PORT_MSG,
    CHUNK,
    FACADE_TAG,
    FACADE_CALL_TIMEOUT_MS,
    FRAMES,
    NONCE_RE,
    frameDocKey,
    RUN_MODES,
    TASK_MAX_LENGTH,
    TERMINAL_STATUSES,
    DEFAULT_SETTINGS,
    HEALTH_TIMEOUT_MS,
    HISTORY,
    STORAGE,
    RUNS_ALARM,
    MCP,
    ASK_NOTIFICATION_PREFIX,
    UI_MESSAGES: Object.freeze(Object.keys(UI_CHECKS)),
    validateUiMessage,
  });
})();

/** An operation a content script answers (bridge.js). @typedef {keyof typeof SentienceProtocol.OPS} SentienceOp */
/** How an operation answers. @typedef {'status' | 'success' | 'value'} SentienceAnswerKind */
/**
 * The extension's settings (storage.local STORAGE.SETTINGS).
 * @typedef {{serverUrl: string, apiKey: string, defaultMode: string}} SentienceSettings
 */
/**
 * A line of a run's log, as the side panel shows it. A tool's line has its
 * parameters (a value typed into a password field replaced by MASK and
 * `masked` set: it is never stored), the text and role of the element it
 * acts on, then its result and how long it took (`ms`).
 * @typedef {{at: number, step: number, kind: string, text?: string, tool?: string, params?: any, target?: string | null, label?: string, role?: string | null, masked?: boolean, result?: any, ms?: number}} SentienceRunLogEntry
 */
/**
 * An element of the run's last snapshot, as the log and approvals name it:
 * its text and role in the snapshot, and its label when that says more
 * (a field's <label>, aria-label: the text of an empty field is its
 * placeholder).
 * @typedef {{text: string, role: string, label?: string, password?: boolean}} SentienceRunElement
 */
/**
 * What a question in careful mode is about (run/approval.js): the action
 * the agent wants and the element it would act on, highlighted on the page
 * until the user answers.
 * @typedef {{question: string, reason: string | null, tool: string | null, params: any, element: ({id: number} & SentienceRunElement) | null, masked?: boolean}} SentienceRunAsk
 */
/**
 * What the agent server at an address is, as the side panel shows it
 * (run/api-client.js `status`): reachable with its /health, or not, with
 * the error in words and what to do about it.
 * @typedef {{ok: true, url: string, health: {status: string, model: string, baseUrl: string, policy?: string, version?: string}} | {ok: false, url: string, problem: 'unreachable' | 'timeout' | 'not-sentience' | 'key' | 'refused' | 'http', error: string, hint: string}} SentienceServerStatus
 */
/**
 * A run record (storage.local `run:${runId}`): written by the service
 * worker (run/run-loop.js) at every transition, read by the side panel, the
 * `sentience run` CLI, the SDKs and the tests; once finished, it is the
 * run's entry in the history (run/history.js).
 * @typedef {object} SentienceRun
 * @property {string} runId
 * @property {number} tabId
 * @property {string} task
 * @property {string} mode
 * @property {string} status the agent server's run status ('created', 'running', 'waiting_user', or one of TERMINAL_STATUSES)
 * @property {number} currentStep
 * @property {number} maxSteps
 * @property {'step' | 'execute' | 'ask' | 'done'} phase where the loop resumes after a restart
 * @property {number} seq idempotency counter of /step and /answer
 * @property {boolean} executing
 * @property {any} pendingTool
 * @property {any} lastActionResult
 * @property {Record<string, SentienceRunElement> | undefined} [lastElements] the last snapshot's elements by id (dropped when the run ends)
 * @property {boolean} [paused] the user paused it: the loop stops after the current step until resumed
 * @property {string} [startUrl] the tab's address when the run started (a re-run starts there)
 * @property {string} [url] the tab's address at the last snapshot
 * @property {SentienceRunAsk | null} [ask] what the pending question is about
 * @property {number} [endedAt] when it reached a terminal status
 * @property {string | null} question
 * @property {string | null} result
 * @property {string | null} error
 * @property {any[]} reflections
 * @property {SentienceRunLogEntry[]} log
 * @property {number} createdAt
 * @property {number} updatedAt
 */
