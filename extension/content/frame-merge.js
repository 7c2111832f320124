// Merges the raw walks of a frame tree into one page in the driver's
// coordinates (extension/content/frames.js fetches the walks). Pure: no DOM,
// no messaging.
//
// The wire layout is crates/snapshot-core/src/raw.rs, as the walker writes
// it. Columns holding node indices are renumbered: N_PARENT (1), N_FORM
// (14), N_LABEL_FOR (15). Geometry is translated: N_X/N_Y (2, 3) and the
// clip N_CLIP_* (10–13), which for a frame's nodes is also cut to the
// frame's visible area (its content box, cut by its overflow ancestors and
// by every enclosing frame). N_Z (7) takes the stacking level of the frame's
// top-level iframe, so what covers that iframe covers its elements. A
// frame's nodes go right after its iframe's position in document order,
// their root parent being the iframe's nearest recorded ancestor (so a
// positioned container of the iframe, a modal say, never occludes them).
'use strict';

globalThis.SentienceFrameMerge = (() => {
  const NUM_STRIDE = SentienceWalker.NUM_STRIDE;
  const STR_FIELDS = SentienceWalker.STR_FIELDS;
  const SEP = '\u001f';

  function sizeOf(node) {
    let n = node.count;
    for (const k of node.kids) n += sizeOf(k);
    return n;
  }

  function intersect(a, b) {
    if (!a) return b;
    if (!b) return a;
    const x = Math.max(a.x, b.x);
    const y = Math.max(a.y, b.y);
    return { x, y, w: Math.max(0, Math.min(a.x + a.w, b.x + b.w) - x), h: Math.max(0, Math.min(a.y + a.h, b.y + b.h) - y) };
  }

  /**
   * `raw`: the driver's walk; `kids`: the frame tree below it, each node
   * {desc, frameId, token, count, nums, strs (split), scanned, kids};
   * `idMaps`: token → (frame-local id → driver id) from the last merge;
   * `iframeOf(desc)`: the driver's iframe element of a top-level frame;
   * `reserveId()`: a fresh id of the driver's never-reused sequence.
   * Returns {meta, nums, strs, routes, idMaps}; routes: driver id →
   * {frameId, token, localId, chain}.
   */
  function merge(raw, kids, idMaps, iframeOf, reserveId) {
    const count = raw.elements.length;
    const top = { count, nums: raw.nums, strs: null, kids };
    const total = sizeOf(top);
    const nums = new Float64Array(total * NUM_STRIDE);
    const topStrs = raw.strs.split(SEP);
    const strs = new Array(2 + total * STR_FIELDS);
    strs[0] = topStrs[0];
    strs[1] = topStrs[1];
    const nextIdMaps = new Map();
    const nextRoutes = new Map();
    const seen = new Map(); // token → nodes in this walk
    const out = { n: 0 };
    let scanned = raw.meta[3];

    function emit(node, fctx) {
      const pos = new Int32Array(node.count);
      let shift = out.n;
      let k = 0;
      for (let i = 0; i < node.count; i++) {
        while (k < node.kids.length && node.kids[k].desc.at <= i) shift += sizeOf(node.kids[k++]);
        pos[i] = shift + i;
      }
      const map = (v) => (v >= 0 && v < node.count ? pos[v] : -1);
      const strSrc = node === top ? topStrs : node.strs;
      // Every id this frame document's elements were given, kept across
      // snapshots: an element that drops out of one walk (hidden for a
      // while) keeps its id when it comes back.
      const ids = fctx.frame ? idMaps.get(node.token) || new Map() : null;
      if (ids) {
        nextIdMaps.set(node.token, ids);
        seen.set(node.token, node.count);
      }
      k = 0;
      for (let i = 0; i <= node.count; i++) {
        while (k < node.kids.length && node.kids[k].desc.at <= i) {
          const kid = node.kids[k++];
          const d = kid.desc;
          const offX = fctx.offX + d.rect.x;
          const offY = fctx.offY + d.rect.y;
          const box = { x: fctx.offX + d.rect.x, y: fctx.offY + d.rect.y, w: d.rect.w, h: d.rect.h };
          const clip = d.clip ? { x: fctx.offX + d.clip.x, y: fctx.offY + d.clip.y, w: d.clip.w, h: d.clip.h } : null;
          scanned += kid.scanned;
          emit(kid, {
            frame: true,
            offX,
            offY,
            visible: intersect(fctx.visible, intersect(box, clip)),
            z: fctx.frame ? fctx.z : d.z,
            rootParent: d.parent >= 0 ? map(d.parent) : fctx.rootParent,
            // For the registry: the top-level iframe element, then the
            // nonces naming each deeper iframe in its parent frame.
            chain: fctx.frame ? [...fctx.chain, d.nonce] : [iframeOf(d)],
          });
        }
        if (i === node.count) break;
        const o = out.n * NUM_STRIDE;
        const s = i * NUM_STRIDE;
        for (let c = 0; c < NUM_STRIDE; c++) nums[o + c] = node.nums[s + c];
        const parent = node.nums[s + 1];
        nums[o + 1] = parent >= 0 ? map(parent) : fctx.rootParent;
        nums[o + 14] = map(node.nums[s + 14]);
        nums[o + 15] = map(node.nums[s + 15]);
        if (fctx.frame) {
          const localId = node.nums[s];
          let gid = ids.get(localId);
          if (gid === undefined) gid = reserveId();
          ids.set(localId, gid);
          nums[o] = gid;
          nextRoutes.set(gid, { frameId: node.frameId, token: node.token, localId, chain: fctx.chain });
          nums[o + 2] += fctx.offX;
          nums[o + 3] += fctx.offY;
          nums[o + 7] = fctx.z;
          const own = node.nums[s + 12] >= 0 ? { x: node.nums[s + 10] + fctx.offX, y: node.nums[s + 11] + fctx.offY, w: node.nums[s + 12], h: node.nums[s + 13] } : null;
          const c = intersect(fctx.visible, own);
          if (c) {
            nums[o + 10] = c.x;
            nums[o + 11] = c.y;
            nums[o + 12] = c.w;
            nums[o + 13] = c.h;
          }
        }
        const sa = 2 + out.n * STR_FIELDS;
        const sb = 2 + i * STR_FIELDS;
        for (let c = 0; c < STR_FIELDS; c++) strs[sa + c] = strSrc[sb + c];
        out.n++;
      }
    }
    emit(top, { frame: false, offX: 0, offY: 0, visible: null, z: 0, rootParent: -1 });
    // Bounded memory: a document whose map holds far more ids than its
    // latest walk recorded keeps only those.
    for (const [tok, ids] of nextIdMaps) {
      if (ids.size > 1000 && ids.size > 4 * (seen.get(tok) || 0)) {
        const fresh = new Map();
        for (const [gid, r] of nextRoutes) if (r.token === tok) fresh.set(r.localId, gid);
        nextIdMaps.set(tok, fresh);
      }
    }
    const meta = new Float64Array(raw.meta);
    meta[3] = scanned;
    meta[4] = total;
    return { meta, nums, strs: strs.join(SEP), routes: nextRoutes, idMaps: nextIdMaps };
  }

  return { merge };
})();
