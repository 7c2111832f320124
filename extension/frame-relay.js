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
'use strict';

globalThis.SentienceFrameRelay = (() => {
  const NONCE_RE = /^[0-9a-f-]{36}$/;
  const CLAIM_TTL_MS = 30000;
  const MAX_TIMEOUT_MS = 10000;
  const ROUTED_OPS = new Set(['click', 'type', 'press', 'scroll', 'page_info', 'highlight']);

  const claims = new Map(); // nonce → {tabId, frameId, origin, ambiguous, data}
  const waiters = new Map(); // nonce → [resolve]
  // Walks that came with their claim (frames.js eager walks), kept until
  // the driver asks: at most MAX_HELD at a time, each for DATA_TTL_MS (a
  // page posting nonce-shaped messages can make frames claim and walk, but
  // not fill the worker's memory).
  const MAX_HELD = 64;
  const MAX_DEPTH = 8; // as frames.js: deeper frames are skipped
  const MAX_FRAMES = 64; // as frames.js: frames per snapshot
  const DATA_TTL_MS = 5000;
  const held = new Set(); // nonces whose claim holds a walk, oldest first

  function dropData(nonce) {
    const c = claims.get(nonce);
    if (c) c.data = undefined;
    held.delete(nonce);
  }

  function claim(nonce, data, sender) {
    if (typeof nonce !== 'string' || !NONCE_RE.test(nonce) || !sender.tab || !Number.isInteger(sender.frameId)) return;
    const known = claims.get(nonce);
    // A nonce is posted to one window; two claimants mean someone replayed
    // it (a same-origin parent page can see its child's messages): the
    // frame is skipped rather than guessed.
    if (known) {
      known.ambiguous = true;
      dropData(nonce);
    } else {
      const walk = data && typeof data === 'object' ? data : undefined;
      claims.set(nonce, { tabId: sender.tab.id, frameId: sender.frameId, origin: sender.origin, ambiguous: false, data: walk });
      setTimeout(() => claims.delete(nonce), CLAIM_TTL_MS);
      if (walk) {
        held.add(nonce);
        if (held.size > MAX_HELD) dropData(held.values().next().value);
        setTimeout(() => dropData(nonce), DATA_TTL_MS);
      }
    }
    for (const wake of waiters.get(nonce) || []) wake();
    waiters.delete(nonce);
  }

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

  function withTimeout(promise, ms) {
    let timer;
    return Promise.race([promise, new Promise((resolve) => (timer = setTimeout(() => resolve({ timeout: true }), ms)))]).finally(() => clearTimeout(timer));
  }

  // A frame's walk and, below it, its own frames' walks (`nested`, by
  // nonce), gathered here as their claims come in: the driver would
  // otherwise ask one level per round trip, each waiting for its main
  // thread (busy with the frames' walks when they share its process). Each
  // frame waits at most `timeoutMs`, all of them within `deadlineMs`.
  function walkTree(msg, sender) {
    const deadline = Date.now() + Math.min(Math.max(1, Number(msg.deadlineMs) || 1000), 3 * MAX_TIMEOUT_MS);
    const depth = Number.isInteger(msg.depth) && msg.depth >= 1 ? msg.depth : MAX_DEPTH;
    // Page scope: only frames of the driver's own origin (an opaque "null"
    // origin is the same as no other).
    const only = msg.scope === 'page' ? String(sender.origin) : null;
    if (typeof msg.stale === 'string' && !claims.has(msg.stale)) return Promise.resolve({ reason: 'unresponsive' });
    return subtree(msg.nonce, timeoutOf(msg), depth, sender, deadline, { frames: MAX_FRAMES, only }, { url: msg.url, siblings: msg.siblings, parentFrameId: sender.frameId });
  }

  // `frame`: {url, parentFrameId} of the iframe, to tell a dead frame at
  // once (frame-liveness.js); the parent is the driver for top-level frames.
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
  async function below(res, timeoutMs, depth, sender, deadline, budget) {
    if (!res.data || depth >= MAX_DEPTH || !Array.isArray(res.data.frames)) return res;
    const nested = {};
    const siblings = res.data.frames.map((d) => d && d.url);
    await Promise.all(
      res.data.frames.map(async (d) => {
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

  function timeoutOf(msg) {
    return Math.min(Math.max(1, Number(msg.timeoutMs) || 1000), MAX_TIMEOUT_MS);
  }

  // Settles with {dead: reason} when the browser knows the frame cannot
  // answer (frame-liveness.js); otherwise never, leaving the claim to win.
  function deadOrNever(sender, msg) {
    return SentienceFrameLiveness.deadReason(sender.tab.id, msg.parentFrameId, msg.url, msg.siblings).then(
      (reason) => (reason ? { dead: reason } : new Promise(() => {})),
      () => new Promise(() => {}),
    );
  }

  // {frameId, data} or {reason}.
  async function walk(msg, sender) {
    const started = Date.now();
    const timeoutMs = timeoutOf(msg);
    if (typeof msg.nonce !== 'string' || !NONCE_RE.test(msg.nonce)) return { reason: 'error' };
    const c = await Promise.race([waitClaim(msg.nonce, timeoutMs), deadOrNever(sender, msg)]);
    if (!c) return { reason: 'timeout' };
    if (c.dead) return { reason: c.dead };
    if (c.tabId !== sender.tab.id || c.frameId === sender.frameId) return { reason: 'error' };
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
      reply = await withTimeout(chrome.tabs.sendMessage(c.tabId, { type: 'sentience-call', op: 'frame_walk', depth: msg.depth, frameId: c.frameId, scope: msg.scope }, { frameId: c.frameId }), left);
    } catch (e) {
      return { reason: 'unreachable' };
    }
    if (reply && reply.timeout) return { reason: 'timeout' };
    if (!reply || !reply.value) return { reason: 'unreachable' };
    if (claims.get(msg.nonce) && claims.get(msg.nonce).ambiguous) return { reason: 'ambiguous' };
    return { frameId: c.frameId, origin: c.origin, data: reply.value };
  }

  async function call(msg, sender) {
    if (!Number.isInteger(msg.frameId) || msg.frameId === sender.frameId || !ROUTED_OPS.has(msg.op)) return { error: 'invalid frame call' };
    try {
      return await chrome.tabs.sendMessage(sender.tab.id, { type: 'sentience-call', op: msg.op, args: msg.args }, { frameId: msg.frameId });
    } catch (e) {
      return { error: `the frame is gone: ${e.message}` };
    }
  }

  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    if (sender.id !== chrome.runtime.id || !msg || !sender.tab) return false;
    if (msg.type === 'frame-claim') {
      claim(msg.nonce, msg.data, sender);
      // The claimant learns its frameId, so its same-origin parent can walk
      // it directly next time (frames.js walkDirect).
      sendResponse({ frameId: sender.frameId });
      return false;
    }
    if (msg.type === 'frame-walk') {
      walkTree(msg, sender).then(sendResponse, () => sendResponse({ reason: 'error' }));
      return true;
    }
    if (msg.type === 'frame-call') {
      call(msg, sender).then(sendResponse, (e) => sendResponse({ error: String(e) }));
      return true;
    }
    return false;
  });

  return { claim, walk, walkTree, call };
})();
