// The walker: one pass over the live DOM collecting the raw facts the Rust
// engine needs (crates/snapshot-core/src/raw.rs documents the wire format
// this file must match). It decides nothing about roles, text precedence,
// importance or occlusion: it only reads.
//
// It runs in the isolated content-script world, whose DOM wrappers and
// built-ins are its own: a page overriding Element.prototype.getBoundingClientRect
// or Array.prototype.map changes nothing here.
//
// Cost model: the measured floor is one getBoundingClientRect plus one
// getComputedStyle per element. The walker reads the computed style of every
// rendered element (it must: cursor, visibility and position decide
// candidacy) but asks for geometry and text only for the elements it records,
// skips display:none / aria-hidden / inert subtrees whole, and never enters
// <svg>, <select> or script-like elements.
'use strict';

globalThis.SentienceWalker = (() => {
  const WIRE_VERSION = 1;
  const NUM_STRIDE = 16;
  const SEP = '\u001f';
  const SEP_RE = /\u001f/g;
  const WS_RE = /\s+/g;
  const MAX_TEXT = 300;
  const MAX_VALUE = 200;

  // Flags: must match raw.rs `Flags`.
  const F = {
    VISIBLE: 1 << 0,
    CURSOR_POINTER: 1 << 1,
    PARENT_CURSOR_POINTER: 1 << 2,
    POSITIONED: 1 << 3,
    FIXED: 1 << 4,
    DISABLED: 1 << 5,
    ONCLICK: 1 << 6,
    TABINDEX: 1 << 7,
    CONTENTEDITABLE: 1 << 8,
    POINTER_EVENTS_NONE: 1 << 9,
    HIDDEN_ATTR: 1 << 10,
    CHECKED: 1 << 11,
    LISTBOX_SELECT: 1 << 12,
    HAS_LIST: 1 << 13,
    HAS_HREF: 1 << 14,
    TRANSPARENT: 1 << 15,
    IN_SEARCH: 1 << 16,
    HAS_POPUP: 1 << 17,
    REPLACED: 1 << 18,
    NATIVELY_FOCUSABLE: 1 << 19,
  };

  // Elements recorded for their tag alone (controls, links, images, and the
  // <form>/<label> elements the rules refer to).
  const RECORD_TAGS = new Set([
    'a', 'area', 'button', 'input', 'select', 'textarea', 'img', 'summary',
    'label', 'form', 'svg', 'canvas', 'search',
  ]);
  // Never descended into: their children are not separate actionable things
  // (or not rendered at all).
  const LEAF_TAGS = new Set(['svg', 'select', 'script', 'style', 'template', 'noscript', 'head', 'iframe', 'object', 'video', 'audio', 'canvas', 'textarea']);
  const NATIVE_FOCUS = new Set(['button', 'input', 'select', 'textarea', 'summary']);

  // Stable ids: an element keeps its id for as long as this content script
  // lives (the page's life); ids are never reused.
  const ids = new WeakMap();
  let nextId = 1;
  function idOf(el) {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
    }
    return id;
  }

  const colourCache = new Map();
  // Computed colours are always `rgb(r, g, b)` or `rgba(r, g, b, a)`.
  function packColour(css) {
    let v = colourCache.get(css);
    if (v !== undefined) return v;
    v = -1;
    const open = css.indexOf('(');
    if (open > 0) {
      const parts = css.slice(open + 1, -1).split(',');
      if (parts.length >= 3) {
        const a = parts.length > 3 ? Math.round(parseFloat(parts[3]) * 255) : 255;
        if (a > 0) v = ((+parts[0] & 255) * 16777216) + ((+parts[1] & 255) << 16) + ((+parts[2] & 255) << 8) + (a & 255);
      }
    }
    colourCache.set(css, v);
    return v;
  }

  function clean(s, max) {
    if (!s) return '';
    if (s.length > max * 4) s = s.slice(0, max * 4);
    s = s.replace(WS_RE, ' ').trim();
    if (s.length > max) s = s.slice(0, max);
    return s.indexOf(SEP) >= 0 ? s.replace(SEP_RE, ' ') : s;
  }

  function textOf(el) {
    // innerText is what the contract names; for leaves textContent is the
    // same text at a fraction of the cost.
    return clean(el.firstElementChild ? el.innerText : el.textContent, MAX_TEXT);
  }

  function idrefText(el, attr) {
    const refs = el.getAttribute(attr);
    if (!refs) return '';
    const root = el.getRootNode();
    let out = '';
    for (const ref of refs.trim().split(WS_RE)) {
      const target = root.getElementById ? root.getElementById(ref) : document.getElementById(ref);
      if (target) out += (out ? ' ' : '') + (target.getAttribute('aria-label') || target.textContent || '');
    }
    return clean(out, MAX_TEXT);
  }

  function labelsText(el) {
    const labels = el.labels;
    if (!labels || labels.length === 0) return '';
    let out = '';
    for (const label of labels) out += (out ? ' ' : '') + label.textContent;
    return clean(out, MAX_TEXT);
  }

  function valueOf(el, tag, type) {
    if (tag === 'select') {
      const opt = el.selectedOptions && el.selectedOptions[0];
      return opt ? clean(opt.text, MAX_VALUE) : '';
    }
    if (tag === 'textarea') return clean(el.value, MAX_VALUE);
    if (tag === 'input') {
      // Never read a password's value: it must not leave the page.
      if (type === 'password' || type === 'hidden' || type === 'file') return '';
      return clean(el.value, MAX_VALUE);
    }
    return '';
  }

  function isTrue(v) {
    return v !== null && v !== 'false' && v !== 'undefined';
  }

  /**
   * Walks the document and returns
   * `{meta: Float64Array, nums: Float64Array, strs: string, elements: Element[]}`
   * where `elements[i]` is the DOM element of node i and
   * `nums[i * 16]` its stable id.
   */
  function collect() {
    const root = document.documentElement;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let nums = new Float64Array(1024 * NUM_STRIDE);
    const strs = [location.href.replace(SEP_RE, ''), new Date().toISOString()];
    const elements = [];
    const labels = []; // node indices of <label>s, resolved after the walk
    let scanned = 0;

    // Per-ancestor context, one entry per depth of the walk.
    const ctxRec = [-1]; // nearest recorded ancestor-or-self
    const ctxPointer = [false];
    const ctxBg = [-1];
    const ctxZ = [0];
    const ctxClip = [null];
    const ctxForm = [-1];
    const ctxSearch = [false];

    function grow() {
      const bigger = new Float64Array(nums.length * 2);
      bigger.set(nums);
      nums = bigger;
    }

    let el = root;
    let depth = 0;
    while (el) {
      let descend = false;
      const tag = el.localName;
      scanned++;
      const cs = getComputedStyle(el);
      const display = cs.display;
      const hiddenTree = display === 'none' || el.getAttribute('aria-hidden') === 'true' || el.inert;
      if (!hiddenTree && tag !== 'script' && tag !== 'style' && tag !== 'head' && tag !== 'template') {
        const parentPointer = ctxPointer[depth];
        const cursorPointer = cs.cursor === 'pointer';
        const position = cs.position;
        const positioned = position !== 'static';
        const zRaw = cs.zIndex;
        const bgRaw = cs.backgroundColor;
        const ownBg = bgRaw === 'rgba(0, 0, 0, 0)' ? -1 : packColour(bgRaw);
        const bg = ownBg >= 0 && (ownBg & 255) > 0 ? ownBg : ctxBg[depth];
        const z = positioned && zRaw !== 'auto' ? parseInt(zRaw, 10) || 0 : ctxZ[depth];
        let clip = position === 'fixed' ? null : ctxClip[depth];
        let form = ctxForm[depth];
        let inSearch = ctxSearch[depth];
        const roleAttr = el.getAttribute('role');
        const hasAttrs = el.attributes.length > 0;
        const onclick = hasAttrs && (el.hasAttribute('onclick') || el.onclick !== null);
        const tabindex = hasAttrs && el.hasAttribute('tabindex') && el.tabIndex >= 0;
        const editableRoot = el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
        if (tag === 'form') form = -2; // patched to this node's index below
        if (tag === 'search' || roleAttr === 'search') inSearch = true;

        const record =
          RECORD_TAGS.has(tag) ||
          roleAttr !== null ||
          onclick ||
          tabindex ||
          editableRoot ||
          (cursorPointer && !parentPointer) ||
          (positioned && (position !== 'relative' || zRaw !== 'auto')) ||
          (hasAttrs && el.hasAttribute('aria-haspopup'));

        let rect = null;
        let rec = ctxRec[depth];
        if (record) {
          rect = el.getBoundingClientRect();
          const i = elements.length;
          if (tag === 'form') form = i;
          if ((i + 1) * NUM_STRIDE > nums.length) grow();
          const o = i * NUM_STRIDE;
          let flags = 0;
          if (cs.visibility === 'visible') flags |= F.VISIBLE;
          if (cursorPointer) flags |= F.CURSOR_POINTER;
          if (parentPointer) flags |= F.PARENT_CURSOR_POINTER;
          if (positioned) flags |= F.POSITIONED;
          if (position === 'fixed' || position === 'sticky') flags |= F.FIXED;
          if (el.matches(':disabled') || (hasAttrs && el.getAttribute('aria-disabled') === 'true')) flags |= F.DISABLED;
          if (onclick) flags |= F.ONCLICK;
          if (tabindex) flags |= F.TABINDEX;
          if (editableRoot) flags |= F.CONTENTEDITABLE;
          if (cs.pointerEvents === 'none') flags |= F.POINTER_EVENTS_NONE;
          if (hasAttrs && el.hasAttribute('hidden')) flags |= F.HIDDEN_ATTR;
          if (el.checked === true || (hasAttrs && el.getAttribute('aria-checked') === 'true')) flags |= F.CHECKED;
          if (tag === 'select' && (el.multiple || el.size > 1)) flags |= F.LISTBOX_SELECT;
          if (tag === 'input' && hasAttrs && el.hasAttribute('list')) flags |= F.HAS_LIST;
          if ((tag === 'a' || tag === 'area') && hasAttrs && el.hasAttribute('href')) flags |= F.HAS_HREF;
          if (cs.opacity === '0') flags |= F.TRANSPARENT;
          if (inSearch) flags |= F.IN_SEARCH;
          if (hasAttrs && isTrue(el.getAttribute('aria-haspopup'))) flags |= F.HAS_POPUP;
          if (tag === 'img' || tag === 'svg' || tag === 'canvas') flags |= F.REPLACED;
          if (NATIVE_FOCUS.has(tag) || flags & F.HAS_HREF) flags |= F.NATIVELY_FOCUSABLE;

          nums[o] = idOf(el);
          nums[o + 1] = rec;
          nums[o + 2] = rect.x;
          nums[o + 3] = rect.y;
          nums[o + 4] = rect.width;
          nums[o + 5] = rect.height;
          nums[o + 6] = flags;
          nums[o + 7] = z;
          nums[o + 8] = ownBg;
          nums[o + 9] = bg;
          if (clip) {
            nums[o + 10] = clip.x;
            nums[o + 11] = clip.y;
            nums[o + 12] = clip.w;
            nums[o + 13] = clip.h;
          } else {
            nums[o + 10] = 0;
            nums[o + 11] = 0;
            nums[o + 12] = -1;
            nums[o + 13] = -1;
          }
          nums[o + 14] = form === -2 ? i : form;
          nums[o + 15] = -1;

          const type = tag === 'input' || tag === 'button' ? (el.getAttribute('type') || '').toLowerCase() : '';
          // Text is only worth reading for what can become a candidate.
          const wantsText = tag !== 'form' && tag !== 'label' && tag !== 'select' && tag !== 'input' && tag !== 'textarea';
          let text = wantsText ? textOf(el) : '';
          let alt = '';
          if (tag === 'img' || tag === 'area' || (tag === 'input' && type === 'image')) alt = clean(el.getAttribute('alt'), MAX_TEXT);
          else if (wantsText && !text) {
            const img = el.querySelector('img[alt], [role=img][aria-label], svg[aria-label]');
            if (img) alt = clean(img.getAttribute('alt') || img.getAttribute('aria-label'), MAX_TEXT);
          }
          strs.push(
            tag,
            roleAttr ? clean(roleAttr, 100) : '',
            type,
            hasAttrs ? clean(el.getAttribute('aria-label'), MAX_TEXT) : '',
            hasAttrs ? idrefText(el, 'aria-labelledby') : '',
            tag === 'input' || tag === 'select' || tag === 'textarea' ? labelsText(el) : '',
            valueOf(el, tag, type),
            hasAttrs ? clean(el.getAttribute('placeholder'), MAX_TEXT) : '',
            alt,
            hasAttrs ? clean(el.getAttribute('title'), MAX_TEXT) : '',
            text,
            hasAttrs ? clean(el.getAttribute('name'), 100) : '',
          );
          elements.push(el);
          if (tag === 'label') labels.push(i);
          rec = i;
        }

        // Overflow clipping for descendants (the root and body scroll the
        // viewport itself, so they do not clip).
        const overflow = cs.overflow;
        if (overflow !== 'visible' && el !== root && el !== document.body && display !== 'contents') {
          if (!rect) rect = el.getBoundingClientRect();
          const x1 = Math.max(rect.x, clip ? clip.x : -Infinity);
          const y1 = Math.max(rect.y, clip ? clip.y : -Infinity);
          const x2 = Math.min(rect.x + rect.width, clip ? clip.x + clip.w : Infinity);
          const y2 = Math.min(rect.y + rect.height, clip ? clip.y + clip.h : Infinity);
          clip = { x: x1, y: y1, w: Math.max(0, x2 - x1), h: Math.max(0, y2 - y1) };
        }

        if (!LEAF_TAGS.has(tag) && el.firstElementChild) {
          depth++;
          ctxRec[depth] = rec;
          ctxPointer[depth] = cursorPointer;
          ctxBg[depth] = bg;
          ctxZ[depth] = z;
          ctxClip[depth] = clip;
          ctxForm[depth] = form === -2 ? elements.length - 1 : form;
          ctxSearch[depth] = inSearch;
          el = el.firstElementChild;
          descend = true;
        }
      }
      if (descend) continue;
      // Next in pre-order: the next sibling, else the next sibling of the
      // nearest ancestor that has one.
      while (el && depth >= 0) {
        if (el === root) {
          el = null;
          break;
        }
        const next = el.nextElementSibling;
        if (next) {
          el = next;
          break;
        }
        el = el.parentElement;
        depth--;
      }
    }

    // <label> → its control's node index (controls may come after the label).
    if (labels.length) {
      const index = new Map();
      for (let i = 0; i < elements.length; i++) index.set(elements[i], i);
      for (const i of labels) {
        const control = elements[i].control;
        const j = control ? index.get(control) : undefined;
        if (j !== undefined) nums[i * NUM_STRIDE + 15] = j;
      }
    }

    const count = elements.length;
    return {
      meta: new Float64Array([WIRE_VERSION, vw, vh, scanned, count]),
      nums: nums.subarray(0, count * NUM_STRIDE),
      strs: strs.join(SEP),
      elements,
      ids: (i) => nums[i * NUM_STRIDE],
    };
  }

  return { collect, idOf };
})();
