// @ts-check
// Gathers the walks of a frame tree into one wire for the engine
// (extension/content/frames.js fetches the walks). Pure: no DOM, no
// messaging, and no geometry: where a frame's elements go, their renumbered
// links, translated rects, clips cut to the frame's visible area and
// stacking level are decided by the engine (crates/snapshot-core/src/
// frames.rs) from each frame's walk and the description of its iframe
// written here as a frame-table row (the FR_* columns of wire.js).
//
// What stays here is routing: each frame element's frame-local id is
// replaced by an id of the driver's never-reused sequence (kept per frame
// document across snapshots), and the route back to the owning frame is
// recorded, so actions and window.sentience_registry reach it.
'use strict';

/**
 * A frame's iframe as the parent frame measured it (frames.js `describe`):
 * its nodes' place in the parent's walk (`at`, `parent`), stacking level,
 * content box and the clip of its overflow ancestors, in the parent's
 * viewport.
 * @typedef {{ at: number, parent: number, z: number, rect: {x: number, y: number, w: number, h: number}, clip: {x: number, y: number, w: number, h: number} | null, nonce: string | null }} IframeDesc
 */
/**
 * A gathered frame: its walk (node count, numbers, strings as the walker
 * wrote them) and the frames below it.
 * @typedef {{ desc: IframeDesc, frameId: number, token: string, count: number, nums: ArrayLike<number>, strs: string, scanned: number, kids: FrameWalk[] }} FrameWalk
 */
/**
 * Where a frame element's driver id leads: the owning frame, its document,
 * the element's id there, and for the registry the top-level iframe element
 * followed by the nonces naming each deeper iframe in its parent frame.
 * @typedef {{ frameId: number, token: string, localId: number, chain: any[] }} Route
 */

globalThis.SentienceFrameMerge = (() => {
  const W = SentienceWire;
  const { NUM_STRIDE, META_LEN, FRAME_STRIDE, SEP } = W;

  /**
   * `raw`: the driver's walk; `kids`: the frame tree below it;
   * `idMaps`: token → (frame-local id → driver id) from the last merge;
   * `iframeOf(desc)`: the driver's iframe element of a top-level frame;
   * `reserveId()`: a fresh id of the driver's never-reused sequence.
   * Returns the tree's wire ({meta, nums, strs}: the top walk, then each
   * frame's in pre-order, with one frame-table row each in meta) and the
   * routes (driver id → Route) and id maps to keep.
   * @param {{ meta: Float64Array, nums: Float64Array, strs: string }} raw
   * @param {FrameWalk[]} kids
   * @param {Map<string, Map<number, number>>} idMaps
   * @param {(desc: IframeDesc) => any} iframeOf
   * @param {() => number} reserveId
   */
  function merge(raw, kids, idMaps, iframeOf, reserveId) {
    // The frames in pre-order, each with its host's row (-1: the top walk).
    /** @type {{ kid: FrameWalk, host: number, chain: any[] }[]} */
    const rows = [];
    /** @param {FrameWalk[]} list @param {number} host @param {any[] | null} chain */
    const visit = (list, host, chain) => {
      for (const kid of list) {
        const row = rows.length;
        const c = chain ? [...chain, kid.desc.nonce] : [iframeOf(kid.desc)];
        rows.push({ kid, host, chain: c });
        visit(kid.kids, row, c);
      }
    };
    visit(kids, -1, null);

    const top = raw.meta[W.M_NODES];
    let total = top;
    for (const r of rows) total += r.kid.count;
    const meta = new Float64Array(META_LEN + rows.length * FRAME_STRIDE);
    meta.set(raw.meta.subarray(0, META_LEN));
    const nums = new Float64Array(total * NUM_STRIDE);
    nums.set(raw.nums.subarray(0, top * NUM_STRIDE));
    const strs = [raw.strs];
    /** @type {Map<string, Map<number, number>>} */
    const nextIdMaps = new Map();
    /** @type {Map<number, Route>} */
    const nextRoutes = new Map();
    const seen = new Map(); // token → nodes in this walk
    let at = top;
    rows.forEach(({ kid, host, chain }, f) => {
      const d = kid.desc;
      const o = META_LEN + f * FRAME_STRIDE;
      meta[o + W.FR_HOST] = host;
      meta[o + W.FR_AT] = d.at;
      meta[o + W.FR_PARENT] = d.parent;
      meta[o + W.FR_Z] = d.z;
      meta[o + W.FR_X] = d.rect.x;
      meta[o + W.FR_Y] = d.rect.y;
      meta[o + W.FR_W] = d.rect.w;
      meta[o + W.FR_H] = d.rect.h;
      meta[o + W.FR_CLIP_X] = d.clip ? d.clip.x : 0;
      meta[o + W.FR_CLIP_Y] = d.clip ? d.clip.y : 0;
      meta[o + W.FR_CLIP_W] = d.clip ? d.clip.w : -1;
      meta[o + W.FR_CLIP_H] = d.clip ? d.clip.h : -1;
      meta[o + W.FR_NODES] = kid.count;
      meta[o + W.FR_SCANNED] = kid.scanned;
      nums.set(kid.nums, at * NUM_STRIDE);
      // Every id this frame document's elements were given, kept across
      // snapshots: an element that drops out of one walk (hidden for a
      // while) keeps its id when it comes back.
      const ids = idMaps.get(kid.token) || new Map();
      nextIdMaps.set(kid.token, ids);
      seen.set(kid.token, kid.count);
      for (let i = 0; i < kid.count; i++) {
        const s = (at + i) * NUM_STRIDE + W.N_STABLE_ID;
        const localId = nums[s];
        let gid = ids.get(localId);
        if (gid === undefined) gid = reserveId();
        ids.set(localId, gid);
        nums[s] = gid;
        nextRoutes.set(gid, { frameId: kid.frameId, token: kid.token, localId, chain });
      }
      strs.push(kid.strs);
      at += kid.count;
    });
    // Bounded memory: a document whose map holds far more ids than its
    // latest walk recorded keeps only those.
    for (const [tok, ids] of nextIdMaps) {
      if (ids.size > 1000 && ids.size > 4 * (seen.get(tok) || 0)) {
        const fresh = new Map();
        for (const [gid, r] of nextRoutes) if (r.token === tok) fresh.set(r.localId, gid);
        nextIdMaps.set(tok, fresh);
      }
    }
    return { meta, nums, strs: strs.join(SEP), routes: nextRoutes, idMaps: nextIdMaps };
  }

  return { merge };
})();
