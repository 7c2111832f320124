// @ts-check
// Iframes in the top-level snapshot (docs/api.md "Iframes and shadow DOM"). Loaded in every
// frame (manifest: all_frames, match_about_blank, match_origin_as_fallback).
//
// The frame that takes the snapshot (the "driver", normally the top frame)
// builds one page out of its own walk and its descendants' walks:
// 1. its walker lists the rendered <iframe>/<frame> elements: where their
//    nodes go in document order, nearest recorded ancestor, stacking level,
//    the clip of overflow ancestors (walker.js `frames`);
// 2. for each, it learns the child's extension frameId without trusting the
//    page: it posts a random single-use nonce to the iframe's window (only
//    the nonce ever travels by window.postMessage, never page data); the
//    child's content script, whose capturing listener is registered at
//    document_start before any page listener, checks that the message comes
//    from its parent window and claims the nonce to the service worker,
//    which learns the claimant's frameId from the runtime (sender.frameId),
//    something no page script can forge (extension/frame-relay.js);
// 3. the child walks as soon as the nonce arrives and sends the walk with
//    its claim (an "eager" walk, at most one per EAGER_GAP_MS); otherwise
//    the service worker asks it for the walk (chrome.tabs.sendMessage with
//    {frameId}). Walks travel over the extension's messaging, which pages
//    can neither read nor write. A frame learns its frameId from the answer
//    to its claim; once it knows it, a same-origin parent walks it directly
//    instead (`directWalk`: our isolated world reaches the child's, and the
//    walk comes back in the same task, with no message at all). A child's
//    walk lists its own iframes the same way (with the walks of the
//    same-origin ones, nonces posted to the others, so they walk right
//    after it); the service worker gathers each top-level frame's whole
//    subtree as the claims come in and answers the driver once per
//    top-level frame, each frame with a timeout (FRAME_TIMEOUT_MS, option
//    `frames.timeout_ms`);
// 4. the walks go to the engine as one wire (frame-merge.js): each frame's
//    walk with a frame-table row describing its iframe, and its ids mapped
//    to fresh ids of the driver's never-reused sequence. The engine merges
//    them (crates/snapshot-core/src/frames.rs: rects translated into the
//    driver's viewport, clip rects intersected with the frame's visible
//    area, nodes placed at their iframe in document order with indices
//    renumbered, a frame's nodes taking the stacking level of its top-level
//    iframe) and runs once over the merged page, so importance, sorting,
//    limit and occlusion are global.
//
// Actions on a frame element's id are routed to the owning frame's content
// script through the service worker, with the frame document's token so an
// id from a document that has since navigated away fails cleanly.
//
// Scopes (extension/content/trust.js): a page script's snapshot (the "page"
// scope) includes only frames of the driver's origin reached through frames
// of that origin, exactly what the page's own scripts could read; every
// other frame is skipped at once as `cross_origin`, never walked. This is
// checked three times: here before asking (the iframe's contentDocument is
// null across origins), by the service worker against the claimant's origin
// as the runtime reports it (frame-relay.js), and here again on the answer.
// Each scope keeps its own ids and routes, so a page can never act through
// ids of the extension's own (full) snapshots.
'use strict';

/**
 * A budget of direct walks for one snapshot (`left` tries), and its scope.
 * @typedef {{left: number, scope: 'full' | 'page'}} SentienceFrameBudget
 */
/**
 * A child frame's walk as its parent describes it to the driver.
 * @typedef {{token: string, url: string, meta: number[], nums: number[], strs: string, frames: SentienceFrameDesc[]}} SentienceFrameWalk
 */
/**
 * One iframe of a walk, described for the driver: where it is and what
 * happened to it (skipped and why, or its nonce, and its walk when its
 * same-origin parent walked it directly).
 * @typedef {{url: string, at: number, parent: number, z: number, rect: {x: number, y: number, w: number, h: number}, clip: any, nonce: string | null, skip: string | null, stale?: string | null, walk: {frameId: number, data: SentienceFrameWalk} | null}} SentienceFrameDesc
 */
/**
 * Where a frame element's driver id leads: the frame's extension frameId,
 * its document's token, the element's id there, and the iframes on the way.
 * @typedef {{frameId: number, token: string, localId: number, chain: Element[]}} SentienceFrameRoute
 */

/**
 * What a snapshot's frames were: merged in (url, depth, how) or skipped (url, why).
 * @typedef {{included: {url: string, depth: number, via: string}[], skipped: {url: string, reason: string}[]}} FrameReport
 */
/**
 * The state of one snapshot's gathering of frames.
 * @typedef {{report: FrameReport, count: number, timeoutMs: number, deadline: number, wireVersion: number, scope: 'full' | 'page'}} GatherContext
 */
/**
 * A frame walk gathered for the merge (frame-merge.js), with its own frames'.
 * @typedef {{desc: SentienceFrameDesc, frameId: number, token: string, count: number, nums: number[], strs: string, scanned: number, kids: GatheredFrame[], url: string}} GatheredFrame
 */

globalThis.SentienceFrames = (() => {
  // The frames' limits and message names, shared with the relay
  // (frame-relay.js): extension/protocol.js.
  const { MSG, FRAMES } = SentienceProtocol;
  const { MAX_DEPTH, MAX_FRAMES, PHASE_TIMEOUTS } = FRAMES;
  // The wire's layout (extension/content/wire.js), to check answers.
  const { NUM_STRIDE, STR_FIELDS, PAGE_STRS, SEP, M_VERSION, M_SCANNED, OPT_SEP, OPT_FIELD, REPORT_INCLUDED, REPORT_SKIPPED } = SentienceWire;
  const SELF_ORIGIN = self.origin;

  // This document's identity: frameIds survive navigations, documents do not.
  const token = crypto.randomUUID();

  // ------------------------------------------------------------ child side
  // nonce → iframe element, from this frame's last walk (for the registry).
  /** @type {Map<string, Element>} */
  let iframes = new Map();
  // driver id → {el, next}: registry requests this frame forwards to a
  // same-origin child frame (set up by the driver, see registryHop).
  /** @type {Map<number, {el: Element, next: number}>} */
  let forwards = new Map();
  const FORWARD_BASE = 2 ** 52;
  // The walk for a parent's snapshot, set by the bridge (it also keeps the
  // walk's elements as this frame's registry): () => data.
  /** @type {((depth: number, budget: SentienceFrameBudget) => SentienceFrameWalk) | null} */
  let walkForParentHook = null;
  // Eager walks: a frame walks as soon as its parent's nonce arrives and
  // sends the walk with its claim, so no frame waits for the service
  // worker's request, and nested frames start as soon as their parent has
  // walked (tests/bench: the requests otherwise queue up behind one another
  // on the shared main thread). A page can post nonce-shaped messages too
  // (it cannot tell them from ours), so at most one eager walk per
  // EAGER_GAP_MS: a claim without a walk is answered by the service
  // worker's request, as before.
  const EAGER_GAP_MS = 50;
  let lastEager = -Infinity;
  // This frame's extension frameId, told by the service worker (the answer
  // to our claim, or its request for our walk). Once known, a same-origin
  // parent walks this frame directly (walkDirect), with no message at all.
  /** @type {number | null} */
  let selfFrameId = null;
  /** @param {unknown} id */
  function learnFrameId(id) {
    if (typeof id === 'number' && Number.isInteger(id) && id > 0) selfFrameId = id;
  }

  // A nonce posted by the parent window (the bridge's listener checked its
  // source and shape): walks at once (at most one eager walk per
  // EAGER_GAP_MS) and claims it with the walk.
  /** @param {{nonce: string, depth?: unknown, scope?: unknown}} d */
  function onNonce(d) {
    const depth = typeof d.depth === 'number' && Number.isInteger(d.depth) && d.depth >= 1 ? d.depth : MAX_DEPTH + 1;
    let data;
    const now = performance.now();
    if (walkForParentHook && depth <= MAX_DEPTH && now - lastEager >= EAGER_GAP_MS) {
      lastEager = now;
      try {
        // A page can forge the scope too: "full" only makes this frame
        // describe more frames, which the service worker and the driver
        // then drop for a page-scope snapshot.
        data = walkForParentHook(depth, budgetFor(d.scope));
      } catch (e) {
        data = undefined; // the service worker's request will ask again
      }
    }
    chrome.runtime.sendMessage({ type: MSG.FRAME_CLAIM, nonce: d.nonce, data }).then((/** @type {any} */ r) => learnFrameId(r && r.frameId), () => {});
  }

  /** @param {string} v */
  function num(v) {
    const n = parseFloat(v);
    return Number.isFinite(n) ? n : 0;
  }

  // A same-origin child frame's walk, taken here and now by its own content
  // script (our isolated world reaches the child's, as registryHop does), or
  // null: another origin (the access throws), no content script yet, or one
  // that does not know its frameId yet (its actions are routed by frameId).
  /**
   * @param {Window} win
   * @param {number} depth
   * @param {SentienceFrameBudget} budget
   * @returns {{frameId: number, data: SentienceFrameWalk} | null}
   */
  function directWalk(win, depth, budget) {
    try {
      const child = /** @type {any} */ (win).SentienceFrames;
      return child && typeof child.walkDirect === 'function' ? child.walkDirect(depth, budget) : null;
    } catch (e) {
      return null;
    }
  }

  /** The address an iframe shows, as its `src` (or `srcdoc`) says. @param {Element} el */
  function urlOf(el) {
    const src = el.getAttribute('src') || (el.hasAttribute('srcdoc') ? 'about:srcdoc' : 'about:blank');
    try {
      return new URL(src, document.baseURI).href;
    } catch (e) {
      return src;
    }
  }

  // Describes the walker's iframes for the driver (rects in this frame's
  // viewport coordinates), with the walk of each same-origin one that
  // could be walked directly (`walk`: {frameId, data}), and posts every
  // other one a nonce (with its depth below the driver: ours + 1).
  // `budget.left`: how many more frames this snapshot may still try to walk
  // directly (MAX_FRAMES tries in all, however deep and wide the
  // same-origin tree; a cross-origin frame's failed try counts too).
  /**
   * @param {SentienceWalkedFrame[]} frames
   * @param {number} depth
   * @param {SentienceFrameBudget} budget
   * @returns {SentienceFrameDesc[]}
   */
  function describe(frames, depth, budget) {
    const pageScope = budget.scope === 'page';
    iframes = new Map();
    /** @type {SentienceFrameDesc[]} */
    const out = [];
    for (const f of frames) {
      const el = f.el;
      const url = urlOf(el);
      const r = el.getBoundingClientRect();
      const cs = f.cs;
      const x = r.x + el.clientLeft + num(cs.paddingLeft);
      const y = r.y + el.clientTop + num(cs.paddingTop);
      const w = Math.max(0, el.clientWidth - num(cs.paddingLeft) - num(cs.paddingRight));
      const h = Math.max(0, el.clientHeight - num(cs.paddingTop) - num(cs.paddingBottom));
      /** @type {SentienceFrameDesc} */
      const d = { url, at: f.at, parent: f.parent, z: f.z, rect: { x, y, w, h }, clip: f.clip, nonce: null, skip: null, walk: null };
      const win = el.contentWindow;
      // Content scripts run in web documents only (not chrome:, extension or
      // viewer frames): asking those would only wait for the timeout.
      if (!win || !/^(https?|about|data|blob|file):/.test(url)) d.skip = 'unreachable';
      else if (cs.visibility !== 'visible' || w < 1 || h < 1) d.skip = 'hidden';
      else {
        // A same-origin frame still showing its initial about:blank while
        // its real document loads has nothing to walk yet.
        let doc = null;
        try {
          doc = el.contentDocument; // null across origins
        } catch (e) {
          doc = null;
        }
        if (doc && doc.URL === 'about:blank' && !/^about:blank/.test(url) && !el.hasAttribute('srcdoc')) d.skip = 'not_loaded';
        else if (!doc && pageScope) d.skip = 'cross_origin';
      }
      if (!d.skip && dead.has(el)) d.skip = dead.get(el) ?? null;
      if (!d.skip && stale.has(el)) d.stale = stale.get(el) ?? null;
      if (!d.skip) {
        // Also the iframe's key in `iframes` when it is walked directly.
        const nonce = crypto.randomUUID();
        d.nonce = nonce;
        iframes.set(nonce, el);
        const child = /** @type {Window} */ (win);
        if (depth + 1 <= MAX_DEPTH && budget.left > 0) {
          budget.left--;
          d.walk = directWalk(child, depth + 1, budget);
        }
        if (!d.walk) child.postMessage({ __sentience: FRAMES.TAG, nonce, depth: depth + 1, scope: budget.scope }, '*');
      }
      out.push(d);
    }
    return out;
  }

  // The walk a parent asks for (through the service worker, or directly),
  // this frame being `depth` below the driver.
  /**
   * @param {() => ReturnType<typeof SentienceWalker.collect>} collect
   * @param {number} depth
   * @param {SentienceFrameBudget} [budget]
   */
  function walkForParent(collect, depth, budget = budgetFor('full')) {
    const raw = collect();
    /** @type {SentienceFrameWalk} */
    const data = { token, url: location.href, meta: Array.from(raw.meta), nums: Array.from(raw.nums), strs: raw.strs, frames: describe(raw.frames, depth, budget) };
    return { data, raw };
  }

  // A same-origin parent's direct request (directWalk): {frameId, data}, or
  // null while this frame does not know its frameId.
  /**
   * @param {number} depth
   * @param {SentienceFrameBudget} budget
   */
  function walkDirect(depth, budget) {
    if (selfFrameId === null || !walkForParentHook || !Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) return null;
    return { frameId: selfFrameId, data: walkForParentHook(depth, budget) };
  }

  /** @param {(depth: number, budget: SentienceFrameBudget) => SentienceFrameWalk} hook */
  function setWalkForParent(hook) {
    walkForParentHook = hook;
  }

  /**
   * A fresh budget of direct walks for a snapshot of `scope` ("page" or "full").
   * @param {unknown} scope
   * @returns {SentienceFrameBudget}
   */
  function budgetFor(scope) {
    return { left: MAX_FRAMES, scope: scope === 'page' ? 'page' : 'full' };
  }

  // ----------------------------------------------------------- driver side
  // Top-level iframes that timed out, each with the nonce of its last
  // unanswered ask: not waited for again (reason `unresponsive`) until the
  // frame navigates (its element's load event) or claims that nonce late,
  // proving it answers after all (frame-relay.js walkTree). A page that
  // fires fake load events only makes us wait for the frame once more.
  // Top-level iframes the browser reported dead (load_failed, no_script:
  // frame-liveness.js), with the reason: skipped without a message at all
  // until they navigate.
  /** @type {WeakMap<Element, string | null>} */
  const stale = new WeakMap();
  /** @type {WeakMap<Element, string>} */
  const dead = new WeakMap();
  /**
   * @param {Element | undefined} el
   * @param {string | null} nonce
   * @param {string | null | undefined} reason
   */
  function noteAnswer(el, nonce, reason) {
    if (!el) return;
    const known = stale.has(el) || dead.has(el);
    stale.delete(el);
    dead.delete(el);
    if (reason === 'timeout' || reason === 'unresponsive') stale.set(el, nonce);
    else if (reason === 'load_failed' || reason === 'no_script') dead.set(el, reason);
    else return;
    if (!known)
      el.addEventListener(
        'load',
        () => {
          stale.delete(el);
          dead.delete(el);
        },
        { once: true },
      );
  }

  // When the runtime loads (a document's first call), the service worker
  // tells which of this frame's child frames failed to load
  // (frame-liveness.js deadChildren, with the runtime's injection: no
  // message of its own), and they are marked dead at once: the first
  // snapshot then skips them without a message, as later ones do (a round
  // trip through the service worker per dead frame cost a first snapshot
  // 5-10 ms on the real pages, docs/benchmarks.md). The same address
  // matching as the relay's (SentienceProtocol.frameDocKey); a frame that
  // navigates fires its iframe's load and is asked again.
  const docKey = SentienceProtocol.frameDocKey;
  // A preloaded document (content/preload.js) asks once the page has
  // loaded, as the first call's runtime load otherwise tells.
  function askDeadFrames() {
    if (!document.querySelector('iframe, frame')) return Promise.resolve();
    return chrome.runtime.sendMessage({ type: MSG.FRAMES_DEAD }).then(
      (/** @type {any} */ r) => learnDeadFrames(r && Array.isArray(r.urls) ? r.urls : []),
      () => {},
    );
  }

  /** @param {unknown[]} urls */
  function learnDeadFrames(urls) {
    if (!urls.length || !document.querySelector('iframe, frame')) return;
    const keys = new Set(urls.filter((u) => typeof u === 'string').map((u) => docKey(/** @type {string} */ (u))));
    for (const el of document.querySelectorAll('iframe, frame')) {
      if (!dead.has(el) && !stale.has(el) && keys.has(docKey(urlOf(el)))) noteAnswer(el, null, 'load_failed');
    }
  }

  /**
   * The coverage report of collectAll in the engine's wire form
   * (crates/snapshot-core/src/frame_report.rs): one record per frame.
   * @param {{included: {url: string, depth: number, via: string}[], skipped: {url: string, reason: string}[]}} report
   */
  function reportWire(report) {
    const clean = (/** @type {string} */ s) => String(s).replace(SEPARATORS_RE, ' ');
    const records = [];
    for (const f of report.included) records.push([REPORT_INCLUDED, clean(f.url), String(f.depth), f.via].join(OPT_FIELD));
    for (const f of report.skipped) records.push([REPORT_SKIPPED, clean(f.url), f.reason].join(OPT_FIELD));
    return records.join(OPT_SEP);
  }
  const SEPARATORS_RE = new RegExp(`[${OPT_SEP}${OPT_FIELD}]`, 'g');

  // The frame's walk and, under `nested`, those of the frames below it
  // (frame-relay.js `walkTree`), each within timeoutMs, all within deadlineMs.
  /**
   * @param {string} nonce
   * @param {number} timeoutMs
   * @param {number} depth
   * @param {number} deadlineMs
   * @param {'full' | 'page'} scope
   * @param {string} url
   * @param {string | null | undefined} staleNonce
   * @param {string[]} siblings
   * @returns {Promise<any>} the relay's answer: {frameId, origin, data, nested} or {reason}
   */
  function askWalk(nonce, timeoutMs, depth, deadlineMs, scope, url, staleNonce, siblings) {
    return new Promise((resolve) => {
      // The relay enforces the timeouts; this one only guards against a
      // service worker that never answers.
      const timer = setTimeout(() => resolve({ reason: 'timeout' }), Math.max(timeoutMs, deadlineMs) + 1000);
      chrome.runtime.sendMessage({ type: MSG.FRAME_WALK, nonce, timeoutMs, depth, deadlineMs, scope, url, stale: staleNonce, siblings }).then(
        (res) => {
          clearTimeout(timer);
          resolve(res || { reason: 'unreachable' });
        },
        () => {
          clearTimeout(timer);
          resolve({ reason: 'unreachable' });
        },
      );
    });
  }

  // Fetches the tree of frame walks below `descs`; fills `report`.
  // `fetched`: what the service worker already gathered for them (by nonce).
  /**
   * @param {SentienceFrameDesc[]} descs
   * @param {number} depth
   * @param {GatherContext} ctx
   * @param {Record<string, any>} [fetched]
   * @returns {Promise<(GatheredFrame | null)[]>}
   */
  async function gather(descs, depth, ctx, fetched) {
    return Promise.all(
      descs.map(async (desc) => {
        /** @param {string} reason */
        const skip = (reason) => {
          ctx.report.skipped.push({ url: desc.url, reason });
          return null;
        };
        if (desc.skip) return skip(desc.skip);
        if (depth > MAX_DEPTH) return skip('too_deep');
        if (ctx.count >= MAX_FRAMES) return skip('too_many');
        ctx.count++;
        // Gathered by the service worker, walked directly, or asked for now.
        const nonce = /** @type {string} */ (desc.nonce); // not skipped: it has one
        /** @type {any} */
        let res = (fetched && fetched[nonce]) || (desc.walk && Number.isInteger(desc.walk.frameId) ? desc.walk : null);
        if (!res) {
          const phase = Math.floor(ctx.deadline - performance.now());
          const left = Math.min(ctx.timeoutMs, phase);
          if (left < 1) return skip('timeout');
          res = await askWalk(nonce, left, depth, phase, ctx.scope, desc.url, desc.stale, descs.map((d) => d.url));
          if (depth === 1) noteAnswer(iframes.get(nonce), nonce, res.data ? null : res.reason);
        }
        if (!res.data) return skip(res.reason || 'unreachable');
        // Page scope: a walk that did not come directly (same origin by
        // construction) must come from a frame of our origin, as the
        // runtime reported it to the service worker.
        if (ctx.scope === 'page' && !(desc.walk && res === desc.walk) && (res.origin !== SELF_ORIGIN || SELF_ORIGIN === 'null')) return skip('cross_origin');
        const data = res.data;
        if (!Array.isArray(data.nums) || typeof data.strs !== 'string' || !Array.isArray(data.frames) || !Array.isArray(data.meta)) return skip('error');
        // Both ends are our content scripts, but of possibly different
        // versions (an extension update reloads frames one by one).
        if (data.meta[M_VERSION] !== ctx.wireVersion) return skip('error');
        if (data.nums.length % NUM_STRIDE !== 0) return skip('error');
        const count = data.nums.length / NUM_STRIDE;
        if (data.strs.split(SEP).length !== PAGE_STRS + count * STR_FIELDS) return skip('error');
        let at = 0;
        for (const d of data.frames) {
          if (!Number.isInteger(d.at) || d.at < at || d.at > count || !Number.isInteger(d.parent) || d.parent < -1 || d.parent >= d.at) return skip('error');
          at = d.at;
        }
        ctx.report.included.push({ url: data.url, depth, via: desc.walk ? 'direct' : 'message' });
        const kids = /** @type {GatheredFrame[]} */ ((await gather(data.frames, depth + 1, ctx, res.nested)).filter(Boolean));
        return { desc, frameId: res.frameId, token: data.token, count, nums: data.nums, strs: data.strs, scanned: num(data.meta[M_SCANNED]), kids, url: data.url };
      }),
    );
  }

  // Per scope: (token → (frame-local id → driver id)), stable for the
  // document's life; driver id → {frameId, token, localId, chain}.
  // `frames`: every frame in the snapshot, {frameId, token}, with elements
  // listed or not (a signed-in message is text, but part of the page).
  /** @typedef {{idMaps: Map<string, Map<number, number>>, routes: Map<number, SentienceFrameRoute>, frames: {frameId: number, token: string}[]}} FramesView */
  /** @type {{full: FramesView, page: FramesView}} */
  const views = { full: { idMaps: new Map(), routes: new Map(), frames: [] }, page: { idMaps: new Map(), routes: new Map(), frames: [] } };
  /** @param {unknown} scope */
  const viewOf = (scope) => (scope === 'page' ? views.page : views.full);

  /**
   * Nothing to merge: the driver's own walk as it is, and no frame ids to
   * route.
   * @param {any} view @param {any} raw @param {any} report
   */
  function ownWalk(view, raw, report) {
    view.idMaps = new Map();
    view.routes = new Map();
    return { meta: raw.meta, nums: raw.nums, strs: raw.strs, report };
  }

  /**
   * Walks the frames below the driver's walk `raw` and gathers them with it
   * into one wire (the engine merges it). Returns {meta, nums, strs, report}
   * (report: {included, skipped}).
   * @param {ReturnType<typeof SentienceWalker.collect>} raw
   * @param {{timeoutMs: number, scope: 'full' | 'page'}} how
   * @returns {Promise<SentienceWalk & {report: FrameReport}>}
   */
  async function collectAll(raw, { timeoutMs, scope }) {
    const view = viewOf(scope);
    /** @type {FrameReport} */
    const report = { included: [], skipped: [] };
    if (!raw.frames.length) {
      // No frame at all (most pages): what the code below ends with, at
      // once (the first snapshot after a page load would otherwise pay for
      // compiling it).
      iframes = new Map();
      view.frames = [];
      return ownWalk(view, raw, report);
    }
    const topDescs = describe(raw.frames, 0, budgetFor(scope));
    // Nested frames come gathered with their top-level frame (frame-relay.js
    // `walkTree`), or are asked once their parent has answered: the whole
    // phase is capped at PHASE_TIMEOUTS per-frame timeouts.
    /** @type {GatherContext} */
    const ctx = { report, count: 0, timeoutMs, deadline: performance.now() + PHASE_TIMEOUTS * timeoutMs, wireVersion: raw.meta[M_VERSION], scope: scope === 'page' ? 'page' : 'full' };
    const kids = /** @type {GatheredFrame[]} */ ((await gather(topDescs, 1, ctx)).filter(Boolean));
    view.frames = [];
    /** @param {GatheredFrame} k */
    const list = (k) => {
      if (Number.isInteger(k.frameId)) view.frames.push({ frameId: k.frameId, token: k.token });
      k.kids.forEach(list);
    };
    kids.forEach(list);
    if (!kids.length) {
      return ownWalk(view, raw, report);
    }
    const merged = SentienceFrameMerge.merge(raw, kids, view.idMaps, (d) => raw.frames[topDescs.indexOf(/** @type {any} */ (d))].el, SentienceWalker.reserveId);
    // Ids of frame documents no longer in the snapshot are forgotten.
    view.idMaps = merged.idMaps;
    view.routes = merged.routes;
    return { meta: merged.meta, nums: merged.nums, strs: merged.strs, report };
  }

  /**
   * window.sentience_registry for a frame element: when every frame on the
   * way is same-origin (so our isolated world can reach their content
   * scripts) and the owning frame still shows the snapshot's document,
   * returns {el, next}: the top-level iframe to answer on and the key its
   * frame's registry resolves (the frame-local id, or for deeper frames
   * this id again, forwarded frame by frame). Otherwise undefined.
   */
  /**
   * @param {number} id
   * @param {'full' | 'page'} scope
   * @returns {{el: Element, next: number} | undefined}
   */
  function registryHop(id, scope) {
    const route = viewOf(scope).routes.get(id);
    if (!route || !route.chain[0] || !route.chain[0].isConnected) return undefined;
    try {
      /** @type {any} an iframe (its window's globals are our content script's) */
      let el = route.chain[0];
      const hops = [el];
      for (let j = 1; j < route.chain.length; j++) {
        const frames = el.contentWindow.SentienceFrames;
        el = frames && frames.iframeFor(route.chain[j]);
        if (!el) return undefined;
        hops.push(el);
      }
      const target = el.contentWindow.SentienceFrames;
      if (!target || target.token !== route.token) return undefined;
      // Forwarded keys live above every frame-local id, so they never
      // shadow an intermediate frame's own elements.
      const key = FORWARD_BASE + id;
      for (let j = 1; j < hops.length; j++) hops[j - 1].contentWindow.SentienceFrames.setForward(key, hops[j], j === hops.length - 1 ? route.localId : key);
      return { el: hops[0], next: hops.length === 1 ? route.localId : key };
    } catch (e) {
      return undefined; // a cross-origin frame on the way
    }
  }

  /** @param {string} nonce */
  function iframeFor(nonce) {
    return iframes.get(nonce);
  }

  /**
   * @param {number} id
   * @param {Element} el
   * @param {number} next
   */
  function setForward(id, el, next) {
    if (forwards.size > 10000) forwards = new Map();
    forwards.set(id, { el, next });
  }

  /** @param {number} id */
  function forwardOf(id) {
    const fw = forwards.get(id);
    return fw && fw.el.isConnected ? fw : undefined;
  }

  /**
   * One route ({frameId, token}) per frame in the last snapshot.
   * @param {'full' | 'page'} scope
   */
  function framesInSnapshot(scope) {
    return viewOf(scope).frames;
  }

  /**
   * The route of a frame element's driver id, or undefined.
   * @param {number} id
   * @param {'full' | 'page'} scope
   */
  function routeOf(id, scope) {
    return viewOf(scope).routes.get(id);
  }

  /** @param {'full' | 'page'} scope */
  function clearRoutes(scope) {
    viewOf(scope).routes = new Map();
    viewOf(scope).frames = [];
  }

  /**
   * Runs `op` in the frame owning the element (args.id is the frame-local id).
   * @param {{frameId: number, token: string}} route
   * @param {SentienceOp} op
   * @param {Record<string, unknown>} args
   * @returns {Promise<any>}
   */
  function call(route, op, args) {
    return chrome.runtime
      .sendMessage({ type: MSG.FRAME_CALL, frameId: route.frameId, op, args: { ...args, doc: route.token } })
      .then(
        (reply) => (reply && reply.value) || { success: false, error: (reply && reply.error) || 'the frame did not answer', outcome: 'none' },
        (/** @type {any} */ e) => ({ success: false, error: `the frame did not answer: ${e && e.message}`, outcome: 'none' }),
      );
  }

  return { token, onNonce, learnDeadFrames, askDeadFrames, deadOf: (/** @type {Element} */ el) => dead.get(el), reportWire, walkForParent, walkDirect, budgetFor, learnFrameId, setWalkForParent, collectAll, routeOf, framesInSnapshot, clearRoutes, call, registryHop, iframeFor, setForward, forwardOf };
})();
