// @ts-check
// Client of the agent server's run API (docs/contracts/run-api.md): timeouts, retries with
// exponential backoff on network errors, 429 and 5xx, and errors that say
// what went wrong. `/step` and `/answer` carry an Idempotency-Key so a retry
// after a lost response (or a service-worker restart) never advances a run
// twice.
'use strict';

globalThis.SentienceApi = (() => {
  const TIMEOUT_MS = 120000; // an LLM step can be slow
  const RETRIES = 4;
  const BACKOFF_MS = 500;

  /** Where the agent server is (SentienceSettings' part the requests need). @typedef {{serverUrl: string, apiKey: string}} Server */

  class ApiError extends Error {
    /**
     * @param {string} message
     * @param {{status?: number, retryable?: boolean}} [how]
     */
    constructor(message, { status = 0, retryable = false } = {}) {
      super(message);
      this.status = status;
      this.retryable = retryable;
    }
  }

  /**
   * @param {Server} settings
   * @param {string} method
   * @param {string} path
   * @param {unknown} body
   * @param {Record<string, string>} headers
   * @returns {Promise<any>}
   */
  async function once(settings, method, path, body, headers) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
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
      const why = e instanceof Error && e.name === 'AbortError' ? `no answer within ${TIMEOUT_MS / 1000} s` : 'server unreachable';
      throw new ApiError(`${why} (${settings.serverUrl})`, { retryable: true });
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
      throw new ApiError(`server answered ${res.status} ${detail}`.trim(), { status: res.status, retryable: res.status === 429 || res.status >= 500 });
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

  const enc = encodeURIComponent;
  /** @typedef {(s: Server, runId: string, body: unknown, key: string) => Promise<any>} Post */
  return {
    ApiError,
    // One try: a person clicking "test connection" wants the answer now.
    health: (/** @type {Server} */ s) => once(s, 'GET', '/health', undefined, {}),
    start: (/** @type {Server} */ s, /** @type {string} */ task, /** @type {string} */ mode) => request(s, 'POST', '/agent/run/start', { task, mode }),
    /** @type {Post} */
    step: (s, runId, body, key) => request(s, 'POST', `/agent/run/${enc(runId)}/step`, body, { 'idempotency-key': key }),
    /** @type {Post} */
    answer: (s, runId, body, key) => request(s, 'POST', `/agent/run/${enc(runId)}/answer`, body, { 'idempotency-key': key }),
    cancel: (/** @type {Server} */ s, /** @type {string} */ runId) => request(s, 'POST', `/agent/run/${enc(runId)}/cancel`),
    get: (/** @type {Server} */ s, /** @type {string} */ runId) => request(s, 'GET', `/agent/run/${enc(runId)}`),
  };
})();
