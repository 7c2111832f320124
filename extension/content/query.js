// @ts-check
// query(), find() and format() over a scope's last snapshot, with the
// query module (pkg/sentience_query_bg.wasm: a WebAssembly module of its
// own, so the snapshot engine's stays small). Same two paths as the engine
// (content/engine.js): here, compiled on the first query of the document,
// or the service worker's when the page's CSP forbids WebAssembly here or
// the caller asks for it.
'use strict';

globalThis.SentienceQueries = (() => {
  const { MSG } = SentienceProtocol;

  /** @type {Promise<typeof SentienceQuery | null> | null} */
  let queryModule = null;
  let loadedGeneration = 0; // which kept snapshot the module holds (query.load)

  /** @returns {Promise<typeof SentienceQuery | null>} */
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

  /**
   * The module in this world, or null to go through the service worker
   * (asked for, or WebAssembly forbidden here by the page's CSP).
   * @param {{path?: string} | undefined} via
   */
  async function moduleFor(via) {
    return via && via.path === 'service_worker' ? null : loadQueryModule();
  }

  /** @param {string} error */
  function statusError(error) {
    return { status: 'error', error };
  }

  /**
   * One query/format call in the service worker; the module's JSON answer text.
   * @param {{op: string, snapshot: string, [key: string]: unknown}} msg
   * @returns {Promise<string>}
   */
  async function viaServiceWorker(msg) {
    try {
      const res = await chrome.runtime.sendMessage({ type: MSG.QUERY, ...msg });
      if (typeof res === 'string') return res;
      return JSON.stringify(statusError(`the service worker failed: ${res && res.error ? res.error : 'no answer'}`));
    } catch (e) {
      return JSON.stringify(statusError(`extension unavailable: ${/** @type {Error} */ (e).message}`));
    }
  }

  /**
   * Puts the kept snapshot into the module unless it is there already
   * (parsed once for any number of queries and formats): the error
   * answer, or null.
   * @param {typeof SentienceQuery} mod
   * @param {{json: string, generation: number}} snap
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
   * @param {{path?: string} | undefined} via
   * @param {'full' | 'page'} scope
   */
  async function run({ query } = {}, first, via, scope) {
    const last = SentienceSnapshots.view(scope).last;
    if (typeof query !== 'string') return statusError('invalid query: the query must be a string, e.g. "role=button text~\'sign in\'"');
    if (!last) return statusError('no snapshot yet: call window.sentience.snapshot() first (queries run on the last snapshot)');
    const mod = await moduleFor(via);
    let answer;
    if (mod) {
      const failed = loadInto(mod, last);
      if (failed) return failed;
      answer = mod.query(query, first);
    } else {
      answer = await viaServiceWorker({ op: 'query', snapshot: last.json, query, first });
    }
    const res = JSON.parse(answer);
    if (res.status !== 'success') return res;
    const elements = SentienceSnapshots.elementsOf(last);
    const found = res.indices.map((/** @type {number} */ i) => elements[i]);
    return first ? (found.length ? found[0] : null) : found;
  }

  /**
   * @param {any} args {snapshot?, max_tokens?}
   * @param {{path?: string} | undefined} via
   * @param {'full' | 'page'} scope
   */
  async function format(args, via, scope) {
    const last = SentienceSnapshots.view(scope).last;
    args = args || {};
    let maxTokens = 1000;
    if (args.max_tokens !== undefined && args.max_tokens !== null) {
      maxTokens = args.max_tokens;
      if (!Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > 1e7) return statusError('invalid format options: max_tokens must be an integer from 0 to 10000000');
    }
    const mod = await moduleFor(via);
    let answer;
    if (args.snapshot !== undefined && args.snapshot !== null) {
      // A copy the page handed over (already structured-cloned into this
      // world): formatted, never kept as "the last snapshot".
      let json;
      try {
        json = JSON.stringify(args.snapshot);
      } catch (e) {
        return statusError(`invalid snapshot: ${/** @type {Error} */ (e).message}`);
      }
      if (typeof json !== 'string') return statusError('invalid snapshot: expected a snapshot object');
      answer = mod ? mod.format(json, maxTokens) : await viaServiceWorker({ op: 'format', snapshot: json, max_tokens: maxTokens });
    } else if (!last) {
      return statusError('no snapshot yet: call window.sentience.snapshot() first, or pass a snapshot to format()');
    } else if (mod) {
      const failed = loadInto(mod, last);
      if (failed) return failed;
      answer = mod.format_loaded(maxTokens);
    } else {
      answer = await viaServiceWorker({ op: 'format', snapshot: last.json, max_tokens: maxTokens });
    }
    const res = JSON.parse(answer);
    return res.status === 'success' ? res.text : res;
  }

  return { run, format };
})();
