// @ts-check
// Client of the agent server's run API (docs/contracts/run-api.md): timeouts, retries with
// exponential backoff on network errors, 429 and 5xx, and errors that say
// what went wrong. `/step` and `/answer` carry an Idempotency-Key so a retry
// after a lost response (or a service-worker restart) never advances a run
// twice. `status` says quickly (HEALTH_TIMEOUT_MS, no retries) whether a
// server is there and usable, in words a person can act on: the side panel
// shows it, and a run is not started against a server that is down.
'use strict';

globalThis.SentienceApi = (() => {
  const TIMEOUT_MS = 120000; // an LLM step can be slow
  const RETRIES = 4;
  const BACKOFF_MS = 500;

  /** Where the agent server is (SentienceSettings' part the requests need). @typedef {{serverUrl: string, apiKey: string}} Server */

  class ApiError extends Error {
    /**
     * @param {string} message
     * @param {{status?: number, retryable?: boolean, timedOut?: boolean, body?: any}} [how]
     */
    constructor(message, { status = 0, retryable = false, timedOut = false, body = null } = {}) {
      super(message);
      this.status = status; // 0: no HTTP answer
      this.retryable = retryable;
      this.timedOut = timedOut;
      this.body = body;
    }
  }

  /**
   * @param {Server} settings
   * @param {string} method
   * @param {string} path
   * @param {unknown} body
   * @param {Record<string, string>} headers
   * @param {number} [timeoutMs]
   * @returns {Promise<any>}
   */
  async function once(settings, method, path, body, headers, timeoutMs = TIMEOUT_MS) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let res;
    try {
      res = await fetch(settings.serverUrl.replace(/\/+$/, '') + path, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          ...headers,
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: controller.signal,
      });
    } catch (e) {
      const timedOut = e instanceof Error && e.name === 'AbortError';
      const why = timedOut ? `agent server did not answer within ${timeoutMs / 1000} s` : 'agent server unreachable';
      throw new ApiError(`${why} (${settings.serverUrl})${timedOut ? '' : ': nothing answers at that address'}`, { retryable: true, timedOut });
    } finally {
      clearTimeout(timer);
    }
    let data = null;
    try {
      data = await res.json();
    } catch (e) {
      data = null;
    }
    if (!res.ok) {
      const detail = data && (data.message || data.error) ? `${data.error || ''}: ${data.message || ''}` : res.statusText;
      throw new ApiError(`server answered ${res.status} ${detail}`.trim(), { status: res.status, retryable: res.status === 429 || res.status >= 500, body: data });
    }
    if (data === null) throw new ApiError('server answered with invalid JSON', { status: res.status, retryable: true });
    return data;
  }

  /**
   * @param {Server} settings
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @param {Record<string, string>} [headers]
   * @returns {Promise<any>}
   */
  async function request(settings, method, path, body, headers = {}) {
    let attempt = 0;
    for (;;) {
      try {
        return await once(settings, method, path, body, headers);
      } catch (e) {
        if (!(e instanceof ApiError) || !e.retryable || attempt >= RETRIES) throw e;
        await new Promise((r) => setTimeout(r, BACKOFF_MS * 2 ** attempt));
        attempt++;
      }
    }
  }

  // What to do about each kind of problem, in the words the panel shows.
  const HINTS = {
    unreachable: 'Start the agent server on this computer with `sentience serve`, or change the server address in Settings.',
    timeout: 'Check that the address in Settings is the agent server’s, and that the server is not overloaded.',
    'not-sentience': 'Another program answers at this address: check the server address in Settings (`sentience serve` listens on http://localhost:3131 by default).',
    key: 'Enter the server’s API key in Settings (the key `sentience serve` was started with, --api-key).',
    refused: 'Start the server so that it accepts this extension (see its --allow-origin and --allowed-host options), or check the address in Settings.',
    http: 'Look at the server’s log for the cause, then test the connection again.',
  };

  /**
   * Whether the agent server is there and will run tasks for us, answered
   * within `timeoutMs` and without retries: GET /health (its policy, model
   * and version), then, since /health needs no key, a look-up of a run that
   * does not exist, which says whether the API key is right (404) or not
   * (401).
   * @param {Server} s
   * @param {number} [timeoutMs]
   * @returns {Promise<SentienceServerStatus>}
   */
  async function status(s, timeoutMs = SentienceProtocol.HEALTH_TIMEOUT_MS) {
    const url = s.serverUrl;
    /**
     * @param {'unreachable' | 'timeout' | 'not-sentience' | 'key' | 'refused' | 'http'} problem
     * @param {string} error
     * @returns {SentienceServerStatus}
     */
    const down = (problem, error) => ({ ok: false, url, problem, error, hint: HINTS[problem] });
    /** @param {unknown} e */
    const failed = (e) => {
      if (!(e instanceof ApiError)) return down('unreachable', `cannot reach ${url}: ${e instanceof Error ? e.message : e}`);
      if (e.status === 0) return e.timedOut ? down('timeout', `no answer from ${url} within ${timeoutMs / 1000} s`) : down('unreachable', `nothing answers at ${url} (no server is listening there, or the address is wrong)`);
      const said = e.body && e.body.message ? `: ${e.body.message}` : '';
      if (e.status === 401) return down('key', s.apiKey ? `the server at ${url} refused the API key${said}` : `the server at ${url} needs an API key${said}`);
      if (e.status === 403) return down('refused', `the server at ${url} refused this extension's request${said}`);
      if (e.status === 404) return down('not-sentience', `something answers at ${url}, but it has no /health: it is not a Sentience agent server`);
      return down('http', `the server at ${url} answered ${e.status}${said}`);
    };
    let health;
    try {
      health = await once(s, 'GET', '/health', undefined, {}, timeoutMs);
    } catch (e) {
      return failed(e);
    }
    if (!health || typeof health.status !== 'string' || typeof health.model !== 'string') {
      return down('not-sentience', `something answers at ${url}, but its /health is not a Sentience agent server's`);
    }
    try {
      await once(s, 'GET', '/agent/run/access-check', undefined, {}, timeoutMs);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) return failed(e);
    }
    return { ok: true, url, health };
  }

  const enc = encodeURIComponent;
  /** @typedef {(s: Server, runId: string, body: unknown, key: string) => Promise<any>} Post */
  return {
    ApiError,
    status,
    // One try: a person clicking "test connection" wants the answer now.
    health: (/** @type {Server} */ s) => once(s, 'GET', '/health', undefined, {}, SentienceProtocol.HEALTH_TIMEOUT_MS),
    start: (/** @type {Server} */ s, /** @type {string} */ task, /** @type {string} */ mode) => request(s, 'POST', '/agent/run/start', { task, mode }),
    /** @type {Post} */
    step: (s, runId, body, key) => request(s, 'POST', `/agent/run/${enc(runId)}/step`, body, { 'idempotency-key': key }),
    /** @type {Post} */
    answer: (s, runId, body, key) => request(s, 'POST', `/agent/run/${enc(runId)}/answer`, body, { 'idempotency-key': key }),
    cancel: (/** @type {Server} */ s, /** @type {string} */ runId) => request(s, 'POST', `/agent/run/${enc(runId)}/cancel`),
    get: (/** @type {Server} */ s, /** @type {string} */ runId) => request(s, 'GET', `/agent/run/${enc(runId)}`),
    // The run as the server keeps it, once and quickly (what a question is
    // about, the reflections).
    state: (/** @type {Server} */ s, /** @type {string} */ runId) => once(s, 'GET', `/agent/run/${enc(runId)}`, undefined, {}, SentienceProtocol.HEALTH_TIMEOUT_MS),
  };
})();
