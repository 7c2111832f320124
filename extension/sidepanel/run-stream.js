// @ts-check
// The agent server's live run stream (docs/server.md "The live run
// stream") for the run the panel shows: what the server knows before the
// service worker does (a run cancelled or ended by another client, its
// reflections) shows as it happens. The feed (run-feed.js) lays it over
// the service worker's record, one reflection per step and the end once,
// so nothing shows twice.
//
// One stream at a time, for a run whose record has not ended. A dropped
// stream reconnects with `since` = the last `seq` received (the server
// sends exactly the events after it). A stream that never opens (an older
// server without it, a proxy that refuses WebSockets) is not tried
// again for that run: the service worker's record, always followed, is
// then all the panel shows, as before. With an API key in the settings the
// key goes as a subprotocol (a browser's WebSocket cannot send
// `Authorization`); a server too old to read it refuses, and the panel
// falls back the same way.
'use strict';

globalThis.SentienceRunStream = (() => {
  const { STORAGE, DEFAULT_SETTINGS, TERMINAL_STATUSES } = SentienceProtocol;
  const Feed = SentienceRunFeed;
  // A dropped stream is opened again after this long, this many times in a row.
  const RETRY_MS = 1000;
  const RETRIES = 5;

  /** @typedef {{runId: string, socket: WebSocket | null, since: number, retries: number, timer: ReturnType<typeof setTimeout> | null}} Following */
  /** @type {Following | null} */
  let current = null;
  /** @type {Set<string>} runs whose stream was refused, or has ended */
  const done = new Set();

  /** The server address and key, as the settings hold them. */
  async function server() {
    const { [STORAGE.SETTINGS]: stored } = await chrome.storage.local.get(STORAGE.SETTINGS);
    return { ...DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (stored || {}) };
  }

  /**
   * The API key as a browser's WebSocket can send it (it cannot set
   * `Authorization`): the subprotocol `sentience.key.` + the key's UTF-8
   * bytes in hex (docs/server.md "The live run stream").
   * @param {string} key
   */
  const keyProtocol = (key) => `sentience.key.${[...new TextEncoder().encode(key.trim())].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

  /**
   * What one event (docs/server.md "Event format") tells the feed.
   * @param {any} e
   */
  function take(e) {
    if (!e || typeof e.seq !== 'number' || !current || e.runId !== current.runId) return;
    if (e.seq <= current.since) return; // already heard
    current.since = e.seq;
    if (e.type === 'reflection') Feed.hear(e.runId, { reflection: e.reflection });
    else if (e.type === 'finish') Feed.hear(e.runId, { result: String(e.result ?? '') });
    else if (e.type === 'error') Feed.hear(e.runId, { error: String(e.error ?? '') });
    else if (e.type === 'status_changed') Feed.hear(e.runId, { status: e.to, at: e.at });
  }

  /** @param {Following} me */
  async function connect(me) {
    const s = await server();
    if (current !== me) return;
    const base = s.serverUrl.replace(/\/+$/, '').replace(/^http/, 'ws');
    let socket;
    try {
      socket = new WebSocket(`${base}/agent/run/${encodeURIComponent(me.runId)}/stream?since=${me.since}`, s.apiKey ? ['sentience', keyProtocol(s.apiKey)] : []);
    } catch (e) {
      done.add(me.runId); // not an address a WebSocket can open
      return;
    }
    me.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      me.retries = 0;
    };
    socket.onmessage = (m) => {
      try {
        take(JSON.parse(String(m.data)));
      } catch (e) {
        // Not an event: ignored, as the server's documentation asks of clients.
      }
    };
    socket.onclose = (c) => {
      me.socket = null;
      if (current !== me) return;
      // 1000: the run ended (all its events were sent). Never opened:
      // refused; the service worker's record stays what the panel shows.
      if (c.code === 1000 || !opened || me.retries >= RETRIES) {
        done.add(me.runId);
        return;
      }
      me.retries++;
      me.timer = setTimeout(() => connect(me), RETRY_MS);
    };
  }

  function stop() {
    if (!current) return;
    if (current.timer) clearTimeout(current.timer);
    const socket = current.socket;
    current = null;
    if (socket) socket.close(1000);
  }

  /**
   * Follows the run the panel shows (null: none); called at every render.
   * @param {SentienceRun | null} run
   */
  function follow(run) {
    if (current && run && current.runId === run.runId) return;
    stop();
    if (!run || done.has(run.runId) || TERMINAL_STATUSES.includes(run.status)) return;
    current = { runId: run.runId, socket: null, since: 0, retries: 0, timer: null };
    connect(current);
  }

  return { follow };
})();
