// @ts-check
// The service worker's side of iframes in snapshots (see
// extension/content/frames.js for the whole flow): it learns which frame
// holds which iframe from nonce claims, fetches frames' raw walks and
// routes actions to the frame owning an element.
//
// Only our content scripts can send these messages (runtime messaging is
// closed to pages), and the frameId and origin of a claim come from the
// runtime (sender.frameId, sender.origin), never from the message. A
// page-scope snapshot (extension/content/trust.js) gets only the walks of
// frames whose origin is the driver's, below frames of that origin.
// The service worker routes MSG.FRAME_CLAIM, MSG.FRAME_WALK and
// MSG.FRAME_CALL here (onClaim, walkTree, call), from our content scripts
// only.
'use strict';

globalThis.SentienceFrameRelay = (() => {
  const { NONCE_RE, FRAMES, MSG } = SentienceProtocol;
  const CLAIM_TTL_MS = 30000;
  // The `frames` option's per-frame timeouts: the engine's (options.rs), through wire.js.
  const { FRAME_TIMEOUT_MS, FRAME_MAX_TIMEOUT_MS: MAX_TIMEOUT_MS } = SentienceWire;
  const ROUTED_OPS = new Set(SentienceProtocol.ROUTED_OPS);

  /**
   * A claim: the frame (tab, frameId, origin) that received a nonce, and the
   * walk it sent with it, if any.
   * @typedef {{tabId: number, frameId: number, origin: string | undefined, ambiguous: boolean, data: any}} Claim
   */

  /** @type {Map<string, Claim>} */
  const claims = new Map();

  // The sender's tab: these messages come from our content scripts in tabs
  // only (service-worker.js ROUTES, `from: 'tab'`).
  /** @param {chrome.runtime.MessageSender} sender */
  function tabOf(sender) {
    if (!sender.tab || sender.tab.id === undefined) throw new Error('not a tab');
    return sender.tab.id;
  }
  /** @type {Map<string, (() => void)[]>} */
  const waiters = new Map();
  // Walks that came with their claim (frames.js eager walks), kept until
  // the driver asks: at most MAX_HELD at a time, each for DATA_TTL_MS (a
  // page posting nonce-shaped messages can make frames claim and walk, but
  // not fill the worker's memory).
  const MAX_HELD = 64;
  const MAX_DEPTH = FRAMES.MAX_DEPTH; // deeper frames are skipped
  const MAX_FRAMES = FRAMES.MAX_FRAMES; // frames per snapshot
  const DATA_TTL_MS = 5000;
  /** @type {Set<string>} nonces whose claim holds a walk, oldest first */
  const held = new Set();

  /** @param {string} nonce */
  function dropData(nonce) {
    const c = claims.get(nonce);
    if (c) c.data = undefined;
    held.delete(nonce);
  }

  /**
   * @param {unknown} nonce
   * @param {unknown} data
   * @param {chrome.runtime.MessageSender} sender
   */
  function claim(nonce, data, sender) {
    if (typeof nonce !== 'string' || !NONCE_RE.test(nonce) || !sender.tab || sender.frameId === undefined || !Number.isInteger(sender.frameId)) return;
    const known = claims.get(nonce);
    // A nonce is posted to one window; two claimants mean someone replayed
    // it (a same-origin parent page can see its child's messages): the
    // frame is skipped rather than guessed.
    if (known) {
      known.ambiguous = true;
      dropData(nonce);
    } else {
      const walk = data && typeof data === 'object' ? data : undefined;
      claims.set(nonce, { tabId: tabOf(sender), frameId: sender.frameId, origin: sender.origin, ambiguous: false, data: walk });
      setTimeout(() => claims.delete(nonce), CLAIM_TTL_MS);
      if (walk) {
        held.add(nonce);
        const oldest = held.values().next().value;
        if (held.size > MAX_HELD && oldest !== undefined) dropData(oldest);
        setTimeout(() => dropData(nonce), DATA_TTL_MS);
      }
    }
    for (const wake of waiters.get(nonce) || []) wake();
    waiters.delete(nonce);
  }

  /**
   * @param {string} nonce
   * @param {number} ms
   * @returns {Promise<Claim | null | undefined>}
   */
  function waitClaim(nonce, ms) {
    if (claims.has(nonce)) return Promise.resolve(claims.get(nonce));
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(claims.get(nonce) || null), ms);
      const list = waiters.get(nonce) || [];
      list.push(() => {
        clearTimeout(timer);
        resolve(claims.get(nonce));
      });
      waiters.set(nonce, list);
    });
  }

  /**
   * @template T
   * @param {Promise<T>} promise
   * @param {number} ms
   * @returns {Promise<T | {timeout: true}>}
   */
  function withTimeout(promise, ms) {
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let timer;
    return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), ms)))]).finally(() => clearTimeout(timer));
  }

  // A frame's walk and, below it, its own frames' walks (`nested`, by
  // nonce), gathered here as their claims come in: the driver would
  // otherwise ask one level per round trip, each waiting for its main
  // thread (busy with the frames' walks when they share its process). Each
  // frame waits at most `timeoutMs`, all of them within `deadlineMs`.
  /**
   * @param {any} msg
   * @param {chrome.runtime.MessageSender} sender
   */
  function walkTree(msg, sender) {
    const deadline = Date.now() + Math.min(Math.max(1, Number(msg.deadlineMs) || FRAME_TIMEOUT_MS), FRAMES.PHASE_TIMEOUTS * MAX_TIMEOUT_MS);
    const depth = Number.isInteger(msg.depth) && msg.depth >= 1 ? msg.depth : MAX_DEPTH;
    // Page scope: only frames of the driver's own origin (an opaque "null"
    // origin is the same as no other).
    const only = msg.scope === 'page' ? String(sender.origin) : null;
    // A frame that timed out before (frames.js noteAnswer) is waited for
    // again only once it has claimed its last nonce, late.
    if (typeof msg.stale === 'string' && NONCE_RE.test(msg.stale) && !claims.has(msg.stale)) return Promise.resolve({ reason: 'unresponsive' });
    return subtree(msg.nonce, timeoutOf(msg), depth, sender, deadline, { frames: MAX_FRAMES, only }, { url: msg.url, siblings: msg.siblings, parentFrameId: sender.frameId });
  }

  // `frame`: {url, parentFrameId} of the iframe, to tell a dead frame at
  // once (frame-liveness.js); the parent is the driver for top-level frames.
  /**
   * @param {string} nonce
   * @param {number} timeoutMs
   * @param {number} depth
   * @param {chrome.runtime.MessageSender} sender
   * @param {number} deadline
   * @param {{frames: number, only: string | null}} budget
   * @param {{url?: unknown, siblings?: unknown, parentFrameId?: number}} [frame]
   * @returns {Promise<any>}
   */
  async function subtree(nonce, timeoutMs, depth, sender, deadline, budget, frame = {}) {
    const left = Math.min(timeoutMs, deadline - Date.now());
    if (left < 1) return { reason: 'timeout' };
    const res = await walk({ nonce, timeoutMs: left, depth, scope: budget.only === null ? 'full' : 'page', ...frame }, sender);
    if (budget.only !== null && res.data && (res.origin !== budget.only || budget.only === 'null')) return { reason: 'cross_origin' };
    return below(res, timeoutMs, depth, sender, deadline, budget);
  }

  // `res` with the walks of its frames under `nested`: a frame its parent
  // walked directly (frames.js directWalk) came inside the parent's walk;
  // the others are gathered by their nonces.
  /**
   * @param {any} res
   * @param {number} timeoutMs
   * @param {number} depth
   * @param {chrome.runtime.MessageSender} sender
   * @param {number} deadline
   * @param {{frames: number, only: string | null}} budget
   * @returns {Promise<any>}
   */
  async function below(res, timeoutMs, depth, sender, deadline, budget) {
    if (!res.data || depth >= MAX_DEPTH || !Array.isArray(res.data.frames)) return res;
    /** @type {Record<string, any>} */
    const nested = {};
    const siblings = res.data.frames.map((/** @type {any} */ d) => d && d.url);
    await Promise.all(
      res.data.frames.map(async (/** @type {any} */ d) => {
        if (!d || typeof d.nonce !== 'string' || !NONCE_RE.test(d.nonce) || budget.frames <= 0) return;
        budget.frames--;
        // Walked directly by its parent: of the parent's origin, or the
        // access would have failed.
        const direct = d.walk && typeof d.walk === 'object' && Number.isInteger(d.walk.frameId) ? { ...d.walk, origin: res.origin } : null;
        nested[d.nonce] = direct ? await below(direct, timeoutMs, depth + 1, sender, deadline, budget) : await subtree(d.nonce, timeoutMs, depth + 1, sender, deadline, budget, { url: d.url, siblings, parentFrameId: res.frameId });
      }),
    );
    return { ...res, nested };
  }

  /** @param {any} msg */
  function timeoutOf(msg) {
    return Math.min(Math.max(1, Number(msg.timeoutMs) || FRAME_TIMEOUT_MS), MAX_TIMEOUT_MS);
  }

  // Settles with {dead: reason} when the browser knows the frame cannot
  // answer (frame-liveness.js); otherwise never, leaving the claim to win.
  /**
   * @param {chrome.runtime.MessageSender} sender
   * @param {any} msg
   * @returns {Promise<{dead: string}>}
   */
  function deadOrNever(sender, msg) {
    return SentienceFrameLiveness.deadReason(tabOf(sender), msg.parentFrameId, msg.url, msg.siblings, () => claims.has(msg.nonce)).then(
      (reason) => (reason ? { dead: reason } : new Promise(() => {})),
      () => new Promise(() => {}),
    );
  }

  /**
   * {frameId, origin, data} or {reason}.
   * @param {any} msg
   * @param {chrome.runtime.MessageSender} sender
   * @returns {Promise<any>}
   */
  async function walk(msg, sender) {
    const started = Date.now();
    const timeoutMs = timeoutOf(msg);
    if (typeof msg.nonce !== 'string' || !NONCE_RE.test(msg.nonce)) return { reason: 'error' };
    const c = await Promise.race([waitClaim(msg.nonce, timeoutMs), deadOrNever(sender, msg)]);
    if (!c) return { reason: 'timeout' };
    if ('dead' in c) return { reason: c.dead };
    if (c.tabId !== tabOf(sender) || c.frameId === sender.frameId) return { reason: 'error' };
    if (c.ambiguous) return { reason: 'ambiguous' };
    if (c.data) {
      // The frame walked when the nonce reached it (frames.js): used once.
      const data = c.data;
      dropData(msg.nonce);
      return { frameId: c.frameId, origin: c.origin, data };
    }
    const left = timeoutMs - (Date.now() - started);
    if (left <= 0) return { reason: 'timeout' };
    let reply;
    try {
      reply = await withTimeout(SentienceDocumentMessages.send(c.tabId, { type: MSG.CALL, op: 'frame_walk', depth: msg.depth, frameId: c.frameId, scope: msg.scope }, { frameId: c.frameId }), left);
    } catch (e) {
      return { reason: 'unreachable' };
    }
    if (reply && reply.timeout) return { reason: 'timeout' };
    if (!reply || !reply.value) return { reason: 'unreachable' };
    const now = claims.get(msg.nonce);
    if (now && now.ambiguous) return { reason: 'ambiguous' };
    return { frameId: c.frameId, origin: c.origin, data: reply.value };
  }

  /**
   * An operation routed by the driver to the child frame holding an element.
   * @param {any} msg
   * @param {chrome.runtime.MessageSender} sender
   */
  async function call(msg, sender) {
    if (!Number.isInteger(msg.frameId) || msg.frameId === sender.frameId || !ROUTED_OPS.has(msg.op)) return { error: 'invalid frame call' };
    try {
      return await SentienceDocumentMessages.send(tabOf(sender), { type: MSG.CALL, op: msg.op, args: msg.args }, { frameId: msg.frameId });
    } catch (e) {
      return { error: `the frame is gone: ${e instanceof Error ? e.message : e}` };
    }
  }

  /**
   * A frame received a nonce ({nonce, data?}). The claimant learns its
   * frameId, so its same-origin parent can walk it directly next time
   * (frames.js walkDirect).
   * @param {any} msg
   * @param {chrome.runtime.MessageSender} sender
   */
  function onClaim(msg, sender) {
    claim(msg.nonce, msg.data, sender);
    return { frameId: sender.frameId };
  }

  return { claim, onClaim, walk, walkTree, call };
})();
