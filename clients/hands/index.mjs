// @ts-check
// @sentience/hands: the ES module face of crates/hands (docs/hands.md).
// The rules run in WebAssembly; this file only does what WebAssembly cannot:
// fetch, timers, and loading the module in a browser page or in Node.
//
// Typed twice over, so the hand-written index.d.ts cannot drift: each
// export below is declared `typeof` its index.d.ts declaration, and the
// module's calls into the WebAssembly are checked against the
// declarations wasm-bindgen generates (pkg/sentience_hands.d.ts), by tsc
// (tests/tsconfig/hands.json, pkg-scripts/check-js.sh);
// tests/unit/hands-types.test.mjs checks that index.d.ts declares exactly
// what this file exports and that HandsConfig is the Rust config's keys.
import init, * as wasm from './pkg/sentience_hands.js';

/** @typedef {import('./index.d.ts')} Api */

/** @type {Promise<void> | null} */
let ready = null;

/**
 * Loads the WebAssembly module once (browser: by URL; Node: from disk).
 * @type {Api['load']}
 */
export const load = () => {
  if (!ready) {
    const url = new URL('./pkg/sentience_hands_bg.wasm', import.meta.url);
    ready = (async () => {
      if (url.protocol === 'file:') {
        const { readFile } = await import('node:fs/promises');
        await init({ module_or_path: await readFile(url) });
      } else {
        await init({ module_or_path: url });
      }
    })();
  }
  return ready;
};

/**
 * The transport the rules call: one JSON request, one JSON answer.
 * @param {typeof fetch} fetchImpl
 * @param {number} timeoutMs
 */
function transport(fetchImpl, timeoutMs) {
  /**
   * @param {string} method
   * @param {string} url
   * @param {string} headersJson
   * @param {string | null} bodyJson
   */
  return async (method, url, headersJson, bodyJson) => {
    const headers = JSON.parse(headersJson);
    if (bodyJson !== null) headers['Content-Type'] = 'application/json';
    const signal = timeoutMs > 0 && typeof AbortSignal?.timeout === 'function'
      ? AbortSignal.timeout(timeoutMs) : undefined;
    const res = await fetchImpl(url, { method, headers, body: bodyJson ?? undefined, signal });
    const text = await res.text();
    let body = null;
    try { body = text ? JSON.parse(text) : null; } catch { body = null; }
    return { status: res.status, body };
  };
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => (globalThis.performance ?? Date).now();

/**
 * Hands on one tool server.
 * @type {Api['createHands']}
 */
export const createHands = async (options = {}) => {
  await load();
  const { fetch: fetchImpl = globalThis.fetch, timeoutMs = 60000, env, ...rest } = options;
  if (typeof fetchImpl !== 'function') throw new TypeError('no fetch available: pass options.fetch');
  const envObj = env ?? (typeof process !== 'undefined' ? pickEnv(process.env) : {});
  const inner = new wasm.Hands(
    { toolsUrl: 'http://127.0.0.1:8765', ...rest, env: envObj },
    transport(fetchImpl, timeoutMs), sleep, now,
  );
  return {
    executeWithRetry: (action) => inner.executeWithRetry(action),
    executeAction: (action) => inner.executeAction(action),
    executeWithSelfHealing: (target) => inner.clickWithHealing(target),
    getCoordinatesWithFallback: (instruction, task = {}, app = undefined) =>
      inner.locate(instruction, task, app),
    startBrowser: (startUrl) => inner.startBrowser(startUrl),
    get sessionId() { return inner.sessionId; },
    free: () => inner.free(),
  };
};

const ENV_KEYS = ['LUX_API_URL', 'LUX_API_KEY', 'GEMINI_API_URL', 'GEMINI_API_KEY', 'GEMINI_MODEL',
  'VISION_API_URL', 'VISION_API_KEY', 'VISION_MODEL', 'HANDS_LUX_PROVIDER', 'HANDS_GEMINI_PROVIDER'];
/** @param {Record<string, string | undefined>} e */
function pickEnv(e) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const k of ENV_KEYS) {
    const v = e[k];
    if (v) out[k] = v;
  }
  return out;
}

/**
 * docs/contracts/tools.md §17.1.
 * @type {Api['createLoopDetector']}
 */
export const createLoopDetector = async (config = {}) => {
  await load();
  return new wasm.LoopDetector(config);
};

/**
 * docs/contracts/tools.md §17.4 (synchronous once `load()` has resolved).
 * @type {Api['detectBrowserBehavior']}
 */
export const detectBrowserBehavior = (task) => wasm.detectBrowserBehavior(task);
/**
 * docs/contracts/tools.md §17.5.
 * @type {Api['categorizeAction']}
 */
export const categorizeAction = (action) => wasm.categorizeAction(typeof action === 'string' ? action : action.type);
/**
 * docs/contracts/tools.md §17.3: 'lux' | 'gemini' | 'both'.
 * @type {Api['chooseVisionProvider']}
 */
export const chooseVisionProvider = (task, context) => /** @type {'lux' | 'gemini' | 'both'} */ (wasm.chooseVisionProvider(task ?? {}, context ?? {}));
/**
 * The spec's value of every threshold.
 * @type {Api['defaultConfig']}
 */
export const defaultConfig = () => wasm.defaultConfig();
