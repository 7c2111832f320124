// @ts-check
// The walker: one pass over the live DOM collecting the raw facts the Rust
// engine needs, written in the wire format of crates/snapshot-core/src/raw.rs
// through the names of extension/content/wire.js (generated from raw.rs:
// never a column number here). It decides nothing about roles, text
// precedence, importance or occlusion: it only reads.
//
// Shortcuts that restate engine rules, to skip reads whose answer the
// engine would ignore (each rule's comment names this file back: change
// both together; crates/snapshot-core/src/walker_mirrors.rs records both
// sides of each pair and fails when one changes without the other being
// looked at):
// - a link or button without a role attribute is clickable by its role, so
//   its cursor is not read (`roleClickable`): cues.rs `is_clickable`;
// - links and buttons are leaves, their content is not walked
//   (`actionable`): select.rs `is_nested_duplicate` (it would collapse);
// - opacity is not read where it cannot matter (`fixedRole`): select.rs
//   `is_hidden` and occlusion.rs `is_occluder`;
// - pointer-events is read only for positioned elements, and a <form> or
//   <label> recorded for its relations gets no box: occlusion.rs
//   `is_occluder` (only positioned boxes occlude);
// - text is not read for input, textarea, select, form and label
//   (`wantsText`): text.rs `native_text`;
// - cuts and separators come from wire.js (raw.rs `LIMITS`, `SEPARATORS`),
//   the option count from MAX_OPTIONS (state.rs `options_of`).
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

/**
 * A walk in the wire form of crates/snapshot-core/src/raw.rs: what the
 * engine takes (src/lib.rs `Walk`, typed by this name in the generated
 * pkg/sentience_wasm.d.ts).
 * @typedef {{meta: ArrayLike<number>, nums: Float64Array, strs: string}} SentienceWalk
 */
/**
 * A rendered <iframe>/<frame> of a walk (content/frames.js describes it to
 * the driver): where the frame's nodes go in document order (`at`), its
 * nearest recorded ancestor, stacking level and the clip of its overflow
 * ancestors (an index into the walk's clips until `measure` makes it a
 * rect; null: none).
 * @typedef {{el: HTMLIFrameElement, cs: CSSStyleDeclaration, at: number, parent: number, z: number, clip: any}} SentienceWalkedFrame
 */

globalThis.SentienceWalker = (() => {
  // The wire's names (extension/content/wire.js, generated from raw.rs).
  const W = SentienceWire;
  const { WIRE_VERSION, NUM_STRIDE, STR_FIELDS, PAGE_STRS, SEP, OPT_FIELD, OPT_SEP, MAX_OPTIONS } = W;
  const { N_STABLE_ID, N_PARENT, N_X, N_Y, N_W, N_H, N_FLAGS, N_Z, N_BG, N_BG_EFFECTIVE, N_CLIP_X, N_CLIP_Y, N_CLIP_W, N_CLIP_H, N_FORM, N_LABEL_FOR } = W;
  const { S_TAG, S_ROLE, S_TYPE, S_ARIA_LABEL, S_LABELLEDBY, S_LABELS, S_VALUE, S_PLACEHOLDER, S_ALT, S_TITLE, S_TEXT, S_NAME, S_OPTIONS } = W;
  const SEP_RE = new RegExp(SEP, 'g');
  const WS_RE = /\s+/g;
  // The whitespace runs `clean` must collapse: all but a lone space, so
  // that ordinary text matches nothing and is returned as it is, not copied.
  const WS_RUN_RE = /[^\S ]\s*|\s{2,}/g;
  const MAX_TEXT = W.MAX_TEXT_CHARS;
  const MAX_VALUE = W.MAX_VALUE_CHARS;
  const MAX_SHORT = W.MAX_SHORT_CHARS;
  // Options column (S_OPTIONS): none of the three separators may appear in
  // an option's text or value.
  const OPT_RE = new RegExp(`[${OPT_FIELD}${OPT_SEP}${SEP}]`, 'g');
  // The N_FLAGS bits (raw.rs `Flags`).
  const F = W.FLAGS;

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
  // Elements that can match :disabled (HTML "actually disabled").
  const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option']);
  // The attributes the walker reads, one bit each. One getAttributeNames()
  // call per element turns into a mask of those present, so an attribute the
  // element does not carry costs no lookup (most elements carry none of
  // these; a link only `href`).
  const A_ROLE = 1 << 0;
  const A_ARIA_HIDDEN = 1 << 1;
  const A_INERT = 1 << 2;
  const A_ONCLICK = 1 << 3;
  const A_TABINDEX = 1 << 4;
  const A_CONTENTEDITABLE = 1 << 5;
  const A_HASPOPUP = 1 << 6;
  const A_ARIA_DISABLED = 1 << 7;
  const A_ARIA_CHECKED = 1 << 8;
  const A_LIST = 1 << 9;
  const A_HREF = 1 << 10;
  const A_ARIA_SELECTED = 1 << 11;
  const A_ARIA_EXPANDED = 1 << 12;
  const A_ARIA_REQUIRED = 1 << 13;
  const A_ARIA_LABEL = 1 << 14;
  const A_LABELLEDBY = 1 << 15;
  const A_PLACEHOLDER = 1 << 16;
  const A_TITLE = 1 << 17;
  const A_NAME = 1 << 18;
  const A_TYPE = 1 << 19;
  const A_ALT = 1 << 20;
  const A_HIDDEN = 1 << 21;
  // Read by no rule, but they exclude an element from "plain" (below): an
  // inline style can set anything, and the UA sheet positions popovers.
  const A_STYLE = 1 << 22;
  const A_POPOVER = 1 << 23;
  const A_ARIA_PRESSED = 1 << 24;
  const ATTR_BITS = new Map([
    ['role', A_ROLE], ['aria-hidden', A_ARIA_HIDDEN], ['inert', A_INERT], ['onclick', A_ONCLICK],
    ['tabindex', A_TABINDEX], ['contenteditable', A_CONTENTEDITABLE], ['aria-haspopup', A_HASPOPUP],
    ['aria-disabled', A_ARIA_DISABLED], ['aria-checked', A_ARIA_CHECKED], ['list', A_LIST], ['href', A_HREF],
    ['aria-selected', A_ARIA_SELECTED], ['aria-expanded', A_ARIA_EXPANDED], ['aria-required', A_ARIA_REQUIRED],
    ['aria-label', A_ARIA_LABEL], ['aria-labelledby', A_LABELLEDBY], ['placeholder', A_PLACEHOLDER],
    ['title', A_TITLE], ['name', A_NAME], ['type', A_TYPE], ['alt', A_ALT], ['hidden', A_HIDDEN],
    ['style', A_STYLE], ['popover', A_POPOVER], ['aria-pressed', A_ARIA_PRESSED],
  ]);
  /** @param {Element} el */
  function attrMask(el) {
    const names = el.getAttributeNames();
    let mask = 0;
    for (let a = 0; a < names.length; a++) {
      const bit = ATTR_BITS.get(names[a]);
      if (bit !== undefined) mask |= bit;
    }
    return mask;
  }
  // The attribute's value when the mask says it is there, else null.
  /**
   * @param {Element} el
   * @param {number} mask
   * @param {number} bit
   * @param {string} name
   */
  function attr(el, mask, bit, name) {
    return mask & bit ? el.getAttribute(name) : null;
  }

  // Stable ids: an element keeps its id for as long as this content script
  // lives (the page's life); ids are never reused.
  const ids = new WeakMap();
  let nextId = 1;
  /** @param {Element} el */
  function idOf(el) {
    let id = ids.get(el);
    if (id === undefined) {
      id = nextId++;
      ids.set(el, id);
    }
    return id;
  }

  /** @type {Map<string, number>} */
  const colourCache = new Map();
  // Computed colours are always `rgb(r, g, b)` or `rgba(r, g, b, a)`.
  /** @param {string} css */
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

  /**
   * @param {string | null | undefined} s
   * @param {number} max
   */
  function clean(s, max) {
    if (!s) return '';
    if (s.length > max * 4) s = s.slice(0, max * 4);
    s = s.replace(WS_RUN_RE, ' ').trim();
    if (s.length > max) s = s.slice(0, max);
    return s.indexOf(SEP) >= 0 ? s.replace(SEP_RE, ' ') : s;
  }

  /** @param {HTMLElement} el */
  function textOf(el) {
    // innerText is what the contract names; for leaves textContent is the
    // same text at a fraction of the cost.
    // (childElementCount, not firstElementChild: no wrapper for the child.)
    return clean(el.childElementCount ? el.innerText : el.textContent, MAX_TEXT);
  }

  /**
   * @param {Element} el
   * @param {string} attr
   */
  function idrefText(el, attr) {
    const refs = el.getAttribute(attr);
    if (!refs) return '';
    const root = /** @type {Document | ShadowRoot} */ (el.getRootNode());
    let out = '';
    for (const ref of refs.trim().split(WS_RE)) {
      const target = root.getElementById ? root.getElementById(ref) : document.getElementById(ref);
      if (target) out += (out ? ' ' : '') + (target.getAttribute('aria-label') || target.textContent || '');
    }
    return clean(out, MAX_TEXT);
  }

  /**
   * @param {any} el a form control (read by duck typing)
   * @param {string} tag
   * @param {string} type
   */
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

  // The first token of a role attribute (ARIA: the first recognised one).
  /** @param {string | null} roleAttr */
  function firstRole(roleAttr) {
    return roleAttr ? roleAttr.trim().split(WS_RE)[0].toLowerCase() : '';
  }

  // An ARIA option's name and value, as state.options reports them and
  // select() (actions.js) matches them.
  /** @param {Element} o */
  function ariaOption(o) {
    const text = clean(o.getAttribute('aria-label') || o.textContent, MAX_SHORT);
    return { text, value: o.getAttribute('data-value') || o.getAttribute('value') || text };
  }

  // The options of a <select> or an ARIA listbox (at most MAX_OPTIONS), in
  // the S_OPTIONS wire form; '' for anything else.
  /**
   * @param {any} el a select or listbox (read by duck typing)
   * @param {string} tag
   * @param {string | null} roleAttr
   */
  function optionsOf(el, tag, roleAttr) {
    let items;
    let native = false;
    if (tag === 'select') {
      items = el.options;
      native = true;
    } else if (firstRole(roleAttr) === 'listbox') {
      items = el.querySelectorAll('[role=option]');
    } else return '';
    const out = [];
    for (let k = 0; k < items.length && k < MAX_OPTIONS; k++) {
      const o = items[k];
      const named = native ? { text: clean(o.text, MAX_SHORT), value: o.value } : ariaOption(o);
      const text = named.text.replace(OPT_RE, ' ');
      const value = named.value;
      const selected = native ? o.selected : o.getAttribute('aria-selected') === 'true';
      out.push(`${text}${OPT_FIELD}${clean(value, MAX_SHORT).replace(OPT_RE, ' ')}${OPT_FIELD}${selected ? 1 : 0}`);
    }
    return out.join(OPT_SEP);
  }

  // <summary> toggles its <details> (HTML §4.11.1): its expanded state.
  /** @param {Element} el */
  function summaryExpanded(el) {
    const details = el.parentElement;
    if (!details || details.localName !== 'details') return 0;
    return /** @type {HTMLDetailsElement} */ (details).open ? F.EXPANDED : F.COLLAPSED;
  }

  /** @param {string | null} v */
  function isTrue(v) {
    return v !== null && v !== 'false' && v !== 'undefined';
  }

  // Closed shadow roots are reachable from content scripts only, through
  // chrome.dom, at about 6 µs a call (measured: asking every <div> and
  // <span> made a 30,000-element page 50% slower). So custom elements are
  // always asked, and the other valid shadow hosts (DOM §4.2.14
  // attachShadow: div, span, section, …) only when they have no light
  // children at all, the usual shape of a host whose content lives in its
  // root. A closed root on a standard element that also has light children
  // is missed (documented in README).
  const openOrClosed = globalThis.chrome && chrome.dom && chrome.dom.openOrClosedShadowRoot;
  const SHADOW_HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'main', 'nav', 'p', 'section', 'span']);
  // A host's shadow root is its for life (DOM: attachShadow throws on a
  // host), so closed roots found once are remembered: repeated snapshots
  // ask chrome.dom only about the elements that had none.
  const closedRoots = new WeakMap();
  /**
   * @param {Element} el
   * @param {string} tag
   * @returns {ShadowRoot | null}
   */
  function shadowOf(el, tag) {
    const open = el.shadowRoot;
    if (open) return open;
    if (!openOrClosed) return null;
    // hasChildNodes(), not firstChild: no wrapper object for a text node.
    if (!(tag.indexOf('-') > 0 || (SHADOW_HOSTS.has(tag) && !el.hasChildNodes()))) return null;
    let root = closedRoots.get(el);
    if (root === undefined) {
      root = openOrClosed(/** @type {HTMLElement} */ (el));
      if (root) closedRoots.set(el, root);
    }
    return root || null;
  }

  // ------------------------------------------------ plain elements
  // Most elements of a page are layout (div, span, li, td, p …) whose
  // computed style tells the walker nothing: no rule gives them their own
  // cursor, a position or display none/contents, so they are never
  // recorded and only pass their parent's cursor on. Reading their style is
  // most of the walk's cost, so it is skipped for "plain" elements: ones in
  // the document tree (shadow trees have their own sheets and `:host`,
  // `::slotted`), of an ordinary tag, without attributes the walker reads
  // or an inline style, and matched by no style rule that sets `cursor`,
  // `position`, `all` or a `display` that hides or unboxes. Their style is
  // read later only if a descendant needs it (background, overflow clip).
  //
  // The rules are read again on every snapshot (CSSOM edits such as
  // insertRule or adoptedStyleSheets cannot be observed), and anything the
  // analysis cannot vouch for makes it give up for that snapshot, so every
  // element is read as before: a cross-origin sheet whose rules are hidden,
  // nested or @scope rules, a selector querySelectorAll rejects, more rules
  // than the page's size pays for (ELEMENTS_PER_RULE, MAX_PLAIN_SELECTORS)
  // or more than MAX_PLAIN_ANIMATIONS running animations. One blind
  // spot is inherited from shadowOf: a closed shadow root on a standard
  // element that also has light children is not found, so neither are its
  // `:host` rules.
  const PLAIN_TAGS_EXCLUDED = new Set([
    ...RECORD_TAGS, ...LEAF_TAGS, 'html', 'body', 'slot', 'details', 'dialog', 'frame', 'title', 'meta',
    'link', 'base', 'datalist', 'noembed', 'noframes', 'param', 'rp', 'source', 'track',
  ]);
  const PLAIN_DISPLAY = /^(block|inline|inline-block|flex|inline-flex|grid|inline-grid|flow-root|list-item|table|inline-table|table-[a-z-]+)$/;
  // The analysis must cost less than the reads it saves (about 2 µs an
  // element): reading a rule costs ~3 µs and matching ~25 ns per selector
  // and element (measured on a real news page with 1,978 rules, where an
  // unbounded analysis took 13 ms against an 11 ms walk). So it runs only
  // when the sheets hold at most one top-level rule per 8 elements, and
  // gives up past 32 rules that matter.
  const ELEMENTS_PER_RULE = 8;
  const MAX_PLAIN_SELECTORS = 32;
  const MAX_PLAIN_ANIMATIONS = 32;

  /** @param {CSSStyleDeclaration} style */
  function ruleMatters(style) {
    if (style.getPropertyValue('cursor') || style.getPropertyValue('position') || style.getPropertyValue('all')) return true;
    const display = style.getPropertyValue('display');
    return display !== '' && !PLAIN_DISPLAY.test(display);
  }

  /**
   * The elements some rule (or animation) may give a cursor, position or
   * display of their own: a Set, or null when the analysis gives up.
   */
  /**
   * @param {Document} doc
   * @param {boolean} budget
   * @returns {Set<Element> | null}
   */
  function styledElements(doc, budget) {
    /** @type {string[]} */
    const selectors = [];
    let ok = true;
    /** @param {CSSRuleList} rules */
    const visit = (rules) => {
      for (let i = 0; ok && i < rules.length; i++) {
        const r = rules[i];
        if (r instanceof CSSStyleRule) {
          if (r.cssRules && r.cssRules.length) ok = false; // nesting: `&` selectors
          else if (ruleMatters(r.style) && selectors.push(r.selectorText) > MAX_PLAIN_SELECTORS && budget) ok = false;
        } else if (r instanceof CSSMediaRule) {
          if (matchMedia(r.media.mediaText).matches) visit(r.cssRules);
        } else if (r instanceof CSSSupportsRule) {
          if (CSS.supports(r.conditionText)) visit(r.cssRules);
        } else if (r instanceof CSSImportRule) {
          if (r.styleSheet) sheet(r.styleSheet);
        } else if (globalThis.CSSScopeRule && r instanceof CSSScopeRule) {
          ok = false; // `:scope` means something else to querySelectorAll
        } else {
          // @layer, @container, @starting-style: as if they applied
          const group = /** @type {Partial<CSSGroupingRule>} */ (r);
          if (group.cssRules) visit(group.cssRules);
        }
      }
    };
    // A sheet's rules, or null for another origin's sheet (unreadable).
    /** @param {CSSStyleSheet} s */
    const rulesOf = (s) => {
      try {
        return s.cssRules;
      } catch (e) {
        return null;
      }
    };
    /** @param {CSSStyleSheet} s */
    const sheet = (s) => {
      if (s.disabled) return;
      const rules = rulesOf(s);
      if (rules) visit(rules);
      else ok = false;
    };
    const tops = [];
    let topRules = 0;
    for (const s of [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])]) {
      if (s.disabled) continue;
      const rules = rulesOf(s);
      if (!rules) return null;
      tops.push(rules);
      topRules += rules.length;
    }
    if (budget && topRules * ELEMENTS_PER_RULE > doc.getElementsByTagName('*').length) return null;
    for (const rules of tops) if (ok) visit(rules);
    if (!ok) return null;
    const styled = new Set();
    if (selectors.length) {
      try {
        const found = doc.querySelectorAll(selectors.join(','));
        for (let i = 0; i < found.length; i++) styled.add(found[i]);
      } catch (e) {
        return null;
      }
    }
    // Script and CSS animations or transitions of those properties.
    const animations = doc.getAnimations();
    if (animations.length > MAX_PLAIN_ANIMATIONS) return null;
    for (const a of animations) {
      const effect = /** @type {KeyframeEffect | null} */ (a.effect);
      if (!effect || !effect.target) continue;
      for (const k of effect.getKeyframes()) {
        if ('cursor' in k || 'position' in k || 'display' in k || 'all' in k) styled.add(effect.target);
      }
    }
    // The UA sheet positions the fullscreen element.
    if (doc.fullscreenElement) styled.add(doc.fullscreenElement);
    return styled;
  }

  /**
   * @param {Element} label
   * @param {Element | null} control
   */
  function labelText(label, control) {
    let text = label.textContent || '';
    // A wrapping label's text includes its control's own text (a select's
    // options, a textarea's content): accname skips the control itself.
    if (control && label.contains(control) && control.textContent) text = text.replace(control.textContent, ' ');
    return text;
  }

  /**
   * Geometry, read after the walk rather than during it: the same
   * getBoundingClientRect() calls cost about twice as much interleaved with
   * the walk's getComputedStyle() reads as they do in one run of their own
   * (tests/bench/walker-ablation.mjs: 10k page, −14 to −20 ms of ~130).
   * Fills each recorded element's bbox (N_X…N_H; empty for those the walk
   * marked with height −1), turns the clip index the walk left in N_CLIP_X
   * into the clip rect (N_CLIP_*; w = h = −1: none), and the frames' clip
   * indices into rects.
   * @param {Float64Array} nums
   * @param {Element[]} elements
   * @param {Element[]} clipEls
   * @param {number[]} clipParent
   * @param {SentienceWalkedFrame[]} frames
   */
  function measure(nums, elements, clipEls, clipParent, frames) {
    const clips = new Float64Array(clipEls.length * 4);
    for (let c = 0; c < clipEls.length; c++) {
      const r = clipEls[c].getBoundingClientRect();
      let x1 = r.x;
      let y1 = r.y;
      let x2 = r.x + r.width;
      let y2 = r.y + r.height;
      const p = clipParent[c] * 4;
      if (p >= 0) {
        x1 = Math.max(x1, clips[p]);
        y1 = Math.max(y1, clips[p + 1]);
        x2 = Math.min(x2, clips[p] + clips[p + 2]);
        y2 = Math.min(y2, clips[p + 1] + clips[p + 3]);
      }
      const o = c * 4;
      clips[o] = x1;
      clips[o + 1] = y1;
      clips[o + 2] = Math.max(0, x2 - x1);
      clips[o + 3] = Math.max(0, y2 - y1);
    }
    for (let i = 0; i < elements.length; i++) {
      const o = i * NUM_STRIDE;
      if (nums[o + N_H] === -1) {
        nums[o + N_X] = nums[o + N_Y] = nums[o + N_W] = nums[o + N_H] = 0;
      } else {
        let r = elements[i].getBoundingClientRect();
        // A check box or radio shrunk to nothing (width/height 0, the
        // "toggle switch" sites copy: `<label class="switch"><input
        // type="checkbox"><span class="slider">`) is used through its label,
        // which is what a person sees and clicks: it takes the label's box.
        // Only a box of no area reads `labels` (a document search).
        if ((r.width === 0 || r.height === 0) && elements[i].localName === 'input') {
          const el = /** @type {HTMLInputElement} */ (elements[i]);
          if ((el.type === 'checkbox' || el.type === 'radio') && el.labels && el.labels.length) {
            const lr = el.labels[0].getBoundingClientRect();
            if (lr.width > 0 && lr.height > 0) r = lr;
          }
        }
        nums[o + N_X] = r.x;
        nums[o + N_Y] = r.y;
        nums[o + N_W] = r.width;
        nums[o + N_H] = r.height;
      }
      const c = nums[o + N_CLIP_X] * 4;
      if (c >= 0) {
        nums[o + N_CLIP_X] = clips[c];
        nums[o + N_CLIP_Y] = clips[c + 1];
        nums[o + N_CLIP_W] = clips[c + 2];
        nums[o + N_CLIP_H] = clips[c + 3];
      } else {
        nums[o + N_CLIP_X] = 0;
        nums[o + N_CLIP_Y] = 0;
        nums[o + N_CLIP_W] = -1;
        nums[o + N_CLIP_H] = -1;
      }
    }
    for (const f of frames) {
      const c = f.clip * 4;
      f.clip = c >= 0 ? { x: clips[c], y: clips[c + 1], w: clips[c + 2], h: clips[c + 3] } : null;
    }
  }

  /**
   * Walks the rendered tree (the document, open and closed shadow roots in
   * place of their hosts' children, slotted elements at their slots) and
   * returns `{meta, nums, strs, elements, ids}`: `elements[i]` is the DOM
   * element of node i and `ids(i)` its stable id.
   *
   * Per element it reads only what decides whether the element matters
   * (display, cursor, position; attributes); colour, visibility, clipping and
   * geometry are read for recorded elements only, and ancestors' backgrounds
   * and overflow clips lazily, once per ancestor.
   *
   * Options (for tests and benchmarks, never reachable from the page):
   * `plain: false` reads every element's style; `budget: false` runs the
   * plain-element analysis whatever the page's rules cost.
   * @param {{ plain?: boolean, budget?: boolean }} [options]
   * @returns {{ meta: Float64Array, plain: number, nums: Float64Array, strs: string, elements: Element[], frames: any[], ids: (i: number) => number }}
   */
  function collect({ plain = true, budget = true } = {}) {
    const root = document.documentElement;
    // Elements whose style may matter (see "plain elements"); null: read all.
    const styled = plain ? styledElements(document, budget) : null;
    let plainCount = 0;
    const body = document.body;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    let nums = new Float64Array(1024 * NUM_STRIDE);
    /** @type {string[]} */
    const strs = [];
    strs[W.P_URL] = location.href.replace(SEP_RE, '');
    strs[W.P_TIMESTAMP] = new Date().toISOString();
    /** @type {Element[]} */
    const elements = [];
    /** @type {number[]} */
    const labels = []; // node indices of <label>s, resolved after the walk
    // Rendered <iframe>/<frame> elements, for extension/content/frames.js:
    // where the frame's nodes go in document order (`at`), their nearest
    // recorded ancestor, stacking level and the clip of overflow ancestors.
    /** @type {SentienceWalkedFrame[]} */
    const frames = [];
    let scanned = 0;

    // The walk's stack, one entry per depth: the element, its computed
    // style, and what its descendants inherit from it.
    /** @type {Element[]} */
    const anc = [];
    /** @type {(CSSStyleDeclaration | null)[]} */
    const ancStyle = [];
    /** @type {boolean[]} */
    const ancFixed = [];
    const ctxRec = [-1]; // nearest recorded ancestor (for depth d: of the element at d)
    const ctxPointer = [false];
    // The element at depth d - 1 set the pointer cursor itself (not
    // inherited): its children may be the separate parts of one clickable
    // row (select.rs `split_wrappers`), so they are recorded.
    const ctxPointerOwner = [false];
    const ctxZ = [0];
    const ctxForm = [-1];
    const ctxSearch = [false];
    const ctxDocTree = [true]; // the element at depth d is in the document tree, not slotted
    const lists = []; // per depth: an array of siblings (slotted elements) or null
    const listAt = [];
    // Lazily computed per ancestor depth; undefined = not yet known.
    /** @type {(number | undefined)[]} */
    const bgAt = [];
    /** @type {(number | undefined)[]} */
    const clipAt = [];

    // The computed style of the ancestor at depth k, read now if it was plain.
    /**
     * @param {number} k
     * @returns {CSSStyleDeclaration}
     */
    function ancStyleOf(k) {
      return ancStyle[k] || (ancStyle[k] = getComputedStyle(anc[k]));
    }
    // Effective background of the ancestor at depth k (its own or inherited).
    /**
     * @param {number} k
     * @returns {number}
     */
    function bgOf(k) {
      if (k < 0) return -1;
      let v = bgAt[k];
      if (v === undefined) {
        const raw = ancStyleOf(k).backgroundColor;
        const own = raw === 'rgba(0, 0, 0, 0)' ? -1 : packColour(raw);
        v = own >= 0 ? own : bgOf(k - 1);
        bgAt[k] = v;
      }
      return v;
    }
    // The clip the ancestor at depth k imposes on its descendants, as an
    // index into the clip table (-1: none). Clip rects are measured after
    // the walk, with the elements' own rects (see `measure`).
    /** @type {Element[]} */
    const clipEls = []; // clip i: its overflow element…
    /** @type {number[]} */
    const clipParent = []; // …and the clip that element is itself inside (< i, or -1)
    /**
     * @param {number} k
     * @returns {number}
     */
    function clipOf(k) {
      if (k < 0) return -1;
      let v = clipAt[k];
      if (v === undefined) {
        const el = anc[k];
        v = ancFixed[k] ? -1 : clipOf(k - 1);
        const style = ancStyleOf(k);
        if (el !== root && el !== body && style.overflow !== 'visible' && style.display !== 'contents') {
          clipEls.push(el);
          clipParent.push(v);
          v = clipEls.length - 1;
        }
        clipAt[k] = v;
      }
      return v;
    }

    function grow() {
      const bigger = new Float64Array(nums.length * 2);
      bigger.set(nums);
      nums = bigger;
    }

    // Our own overlay (overlay.js) is not part of the page: skipped whole,
    // uncounted, so a snapshot taken while it shows equals one without it.
    const overlayHost = globalThis.SentienceOverlay ? SentienceOverlay.host() : null;
    // Any element kind: form controls, slots, custom elements… (read by duck typing).
    /** @type {any} */
    let el = root;
    let depth = 0;
    lists[0] = null;
    while (el) {
      let firstChild = null;
      let childList = null;
      const tag = el.localName;
      const own = el === overlayHost;
      if (!own) scanned++;
      if (!own && tag !== 'script' && tag !== 'style' && tag !== 'head' && tag !== 'template') {
        const attrs = attrMask(el);
        // A plain element (see styledElements): no style read at all, its
        // cursor is its parent's, its position static.
        let shadow;
        const partOfWrapper = ctxPointerOwner[depth];
        let isPlain = styled !== null && attrs === 0 && !partOfWrapper && ctxDocTree[depth] && !PLAIN_TAGS_EXCLUDED.has(tag) && tag.indexOf('-') < 0 && !styled.has(el);
        if (isPlain) {
          shadow = shadowOf(el, tag); // a host's `:host` rules live in its root
          if (shadow) isPlain = false;
          else plainCount++;
        }
        // Plain elements never read it (they are never recorded, nor a
        // clip or background ancestor read before its style is: ancStyleOf).
        const cs = /** @type {CSSStyleDeclaration} */ (isPlain ? null : getComputedStyle(el));
        const display = isPlain ? '' : cs.display;
        const hiddenTree = display === 'none' || (attrs & A_INERT) !== 0 || attr(el, attrs, A_ARIA_HIDDEN, 'aria-hidden') === 'true';
        if (!hiddenTree) {
          const parentPointer = ctxPointer[depth];
          const roleAttr = attr(el, attrs, A_ROLE, 'role');
          // A link or button is clickable by its role (cues.rs is_clickable)
          // and a leaf of the walk (below), so its cursor decides nothing.
          const roleClickable = roleAttr === null && (tag === 'button' || (tag === 'a' && (attrs & A_HREF) !== 0));
          const cursorPointer = isPlain ? parentPointer : !roleClickable && cs.cursor === 'pointer';
          const position = isPlain ? 'static' : cs.position;
          const positioned = position !== 'static';
          const fixed = position === 'fixed';
          const zRaw = positioned ? cs.zIndex : 'auto';
          const z = zRaw !== 'auto' ? parseInt(zRaw, 10) || 0 : ctxZ[depth];
          let form = ctxForm[depth];
          let inSearch = ctxSearch[depth];
          const onclick = (attrs & A_ONCLICK) !== 0;
          const tabindex = (attrs & A_TABINDEX) !== 0 && el.tabIndex >= 0;
          // Only an editing host carries the attribute; its descendants inherit.
          const editableRoot = (attrs & A_CONTENTEDITABLE) !== 0 && el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable);
          if (tag === 'search' || roleAttr === 'search') inSearch = true;

          const marked =
            roleAttr !== null ||
            onclick ||
            tabindex ||
            editableRoot ||
            (cursorPointer && !parentPointer) ||
            (cursorPointer && partOfWrapper) ||
            (positioned && (position !== 'relative' || zRaw !== 'auto')) ||
            (attrs & A_HASPOPUP) !== 0;
          const record = marked || RECORD_TAGS.has(tag);

          let rec = ctxRec[depth];
          if (record) {
            const i = elements.length;
            if (tag === 'form') form = i;
            if ((i + 1) * NUM_STRIDE > nums.length) grow();
            const o = i * NUM_STRIDE;
            const type = tag === 'input' || tag === 'button' ? (attr(el, attrs, A_TYPE, 'type') || '').toLowerCase() : '';
            let flags = 0;
            if (cs.visibility === 'visible') flags |= F.VISIBLE;
            if (cursorPointer) flags |= F.CURSOR_POINTER;
            if (parentPointer) flags |= F.PARENT_CURSOR_POINTER;
            if (positioned) flags |= F.POSITIONED;
            if (fixed || position === 'sticky') flags |= F.FIXED;
            if ((DISABLEABLE.has(tag) && el.matches(':disabled')) || attr(el, attrs, A_ARIA_DISABLED, 'aria-disabled') === 'true') flags |= F.DISABLED;
            if (onclick) flags |= F.ONCLICK;
            if (tabindex) flags |= F.TABINDEX;
            if (editableRoot) flags |= F.CONTENTEDITABLE;
            // Only positioned boxes can occlude, so only theirs matters.
            if (positioned && cs.pointerEvents === 'none') flags |= F.POINTER_EVENTS_NONE;
            if (attrs & A_HIDDEN) flags |= F.HIDDEN_ATTR;
            if (el.checked === true || attr(el, attrs, A_ARIA_CHECKED, 'aria-checked') === 'true') flags |= F.CHECKED;
            // A toggle button (WAI-ARIA 1.2 §6.6 `aria-pressed`): pressed is its checked state (roles.rs).
            if (attrs & A_ARIA_PRESSED) {
              const pressed = el.getAttribute('aria-pressed');
              if (pressed === 'true' || pressed === 'false' || pressed === 'mixed') flags |= F.TOGGLE;
              if (pressed === 'true') flags |= F.CHECKED;
              if (pressed === 'mixed') flags |= F.MIXED;
            }
            if (tag === 'select' && (el.multiple || el.size > 1)) flags |= F.LISTBOX_SELECT;
            if (tag === 'input' && attrs & A_LIST) flags |= F.HAS_LIST;
            if ((tag === 'a' || tag === 'area') && attrs & A_HREF) flags |= F.HAS_HREF;
            // opacity: 0 hides only Generic and Image candidates, and keeps an
            // occluder from occluding (select.rs is_hidden, occlusion.rs
            // is_occluder): an unpositioned link, button or form control
            // without a role attribute can be neither, so its opacity is not read.
            const fixedRole = roleAttr === null && !positioned && (tag === 'button' || tag === 'select' || tag === 'textarea' || (flags & F.HAS_HREF) !== 0 || (tag === 'input' && type !== 'range'));
            if (!fixedRole && cs.opacity === '0') flags |= F.TRANSPARENT;
            if (inSearch) flags |= F.IN_SEARCH;
            if (isTrue(attr(el, attrs, A_HASPOPUP, 'aria-haspopup'))) flags |= F.HAS_POPUP;
            if (tag === 'img' || tag === 'svg' || tag === 'canvas') flags |= F.REPLACED;
            if (NATIVE_FOCUS.has(tag) || flags & F.HAS_HREF) flags |= F.NATIVELY_FOCUSABLE;
            // State (the element's `state` object).
            if ((tag === 'input' && el.indeterminate === true && type === 'checkbox') || attr(el, attrs, A_ARIA_CHECKED, 'aria-checked') === 'mixed') flags |= F.MIXED;
            if (el.required === true || attr(el, attrs, A_ARIA_REQUIRED, 'aria-required') === 'true') flags |= F.REQUIRED;
            if (attrs & A_ARIA_SELECTED) flags |= el.getAttribute('aria-selected') === 'true' ? F.HAS_SELECTED | F.SELECTED : F.HAS_SELECTED;
            if (attrs & A_ARIA_EXPANDED) {
              const exp = el.getAttribute('aria-expanded');
              if (exp === 'true') flags |= F.EXPANDED;
              else if (exp === 'false') flags |= F.COLLAPSED;
            }
            if (tag === 'summary' && !(flags & (F.EXPANDED | F.COLLAPSED))) flags |= summaryExpanded(el);

            const bgRaw = cs.backgroundColor;
            const ownBg = bgRaw === 'rgba(0, 0, 0, 0)' ? -1 : packColour(bgRaw);
            nums[o + N_STABLE_ID] = idOf(el);
            nums[o + N_PARENT] = rec;
            // The bbox and the clip rect: filled in by `measure` after the walk.
            nums[o + N_FLAGS] = flags;
            nums[o + N_Z] = z;
            nums[o + N_BG] = ownBg;
            nums[o + N_BG_EFFECTIVE] = ownBg >= 0 ? ownBg : bgOf(depth - 1);
            nums[o + N_CLIP_X] = fixed ? -1 : clipOf(depth - 1);
            nums[o + N_FORM] = form;
            nums[o + N_LABEL_FOR] = -1;
            // A <form> or <label> recorded for its tag alone is never a
            // candidate nor an occluder (it is there for the form and
            // label relations), so its box is never read: `measure` skips
            // it (height -1) and leaves it empty.
            nums[o + N_H] = !marked && !positioned && (tag === 'form' || tag === 'label') ? -1 : 0;

            // Text is only worth reading for what can become a candidate.
            const wantsText = tag !== 'form' && tag !== 'label' && tag !== 'select' && tag !== 'input' && tag !== 'textarea';
            const text = wantsText ? textOf(el) : '';
            let alt = '';
            if (tag === 'img' || tag === 'area' || (tag === 'input' && type === 'image')) alt = clean(attr(el, attrs, A_ALT, 'alt'), MAX_TEXT);
            else if (wantsText && !text) {
              // Name from content (accname 2F) of an icon-only control: the
              // first image that names something. alt="" marks a spacer and
              // is skipped; an SVG is named by its <title> child (SVG-AAM
              // §8.1), as logo links on real sites often are.
              const img = el.querySelector('img[alt]:not([alt=""]), [role=img][aria-label], svg[aria-label], svg > title');
              if (img) alt = clean(img.localName === 'title' ? img.textContent : img.getAttribute('alt') || img.getAttribute('aria-label'), MAX_TEXT);
            }
            const so = PAGE_STRS + i * STR_FIELDS;
            strs[so + S_TAG] = tag;
            strs[so + S_ROLE] = roleAttr ? clean(roleAttr, MAX_SHORT) : '';
            strs[so + S_TYPE] = type;
            strs[so + S_ARIA_LABEL] = clean(attr(el, attrs, A_ARIA_LABEL, 'aria-label'), MAX_TEXT);
            strs[so + S_LABELLEDBY] = attrs & A_LABELLEDBY ? idrefText(el, 'aria-labelledby') : '';
            // Labels: filled in after the walk (el.labels costs a document search per control).
            strs[so + S_LABELS] = '';
            strs[so + S_VALUE] = valueOf(el, tag, type);
            strs[so + S_PLACEHOLDER] = clean(attr(el, attrs, A_PLACEHOLDER, 'placeholder'), MAX_TEXT);
            strs[so + S_ALT] = alt;
            strs[so + S_TITLE] = clean(attr(el, attrs, A_TITLE, 'title'), MAX_TEXT);
            strs[so + S_TEXT] = text;
            strs[so + S_NAME] = clean(attr(el, attrs, A_NAME, 'name'), MAX_SHORT);
            strs[so + S_OPTIONS] = tag === 'select' || roleAttr !== null ? optionsOf(el, tag, roleAttr) : '';
            elements.push(el);
            if (tag === 'label') labels.push(i);
            rec = i;
          }

          if (tag === 'iframe' || tag === 'frame') frames.push({ el, cs, at: elements.length, parent: rec, z, clip: fixed ? -1 : clipOf(depth - 1) });

          // Links and buttons are leaves too: what they contain collapses
          // into them (the engine drops candidates nested in a link or a
          // button), and their text is read from them, so walking their
          // icons and spans would only cost time.
          const actionable = tag === 'button' || (tag === 'a' && (attrs & A_HREF) !== 0);
          let intoShadow = false;
          if (!LEAF_TAGS.has(tag) && !actionable) {
            if (shadow === undefined) shadow = shadowOf(el, tag);
            intoShadow = !!shadow;
            if (shadow) firstChild = shadow.firstElementChild;
            else if (tag === 'slot') {
              const assigned = el.assignedElements({ flatten: true });
              if (assigned.length) {
                childList = assigned;
                firstChild = assigned[0];
              } else firstChild = el.firstElementChild;
            } else firstChild = el.firstElementChild;
          }
          if (firstChild) {
            anc[depth] = el;
            ancStyle[depth] = cs;
            ancFixed[depth] = fixed;
            bgAt[depth] = undefined;
            clipAt[depth] = undefined;
            depth++;
            ctxRec[depth] = rec;
            ctxPointer[depth] = cursorPointer;
            ctxPointerOwner[depth] = cursorPointer && !parentPointer;
            ctxZ[depth] = z;
            ctxForm[depth] = form;
            ctxSearch[depth] = inSearch;
            ctxDocTree[depth] = ctxDocTree[depth - 1] && !intoShadow && childList === null;
            lists[depth] = childList;
            listAt[depth] = 0;
            el = firstChild;
            continue;
          }
        }
      }
      // Next in pre-order: the next sibling, else the next sibling of the
      // nearest ancestor that has one.
      for (;;) {
        if (depth === 0) {
          el = null;
          break;
        }
        const list = lists[depth];
        const next = list ? list[++listAt[depth]] : el.nextElementSibling;
        if (next) {
          el = next;
          break;
        }
        depth--;
        el = anc[depth];
      }
    }

    // <label> texts for their controls, from one pass over the labels
    // (controls may come after their labels).
    if (labels.length) {
      const index = new Map();
      for (let i = 0; i < elements.length; i++) index.set(elements[i], i);
      const texts = new Map();
      for (const i of labels) {
        const label = elements[i];
        const control = /** @type {HTMLLabelElement} */ (label).control;
        const j = control ? index.get(control) : undefined;
        if (j === undefined) continue;
        nums[i * NUM_STRIDE + N_LABEL_FOR] = j;
        texts.set(j, (texts.has(j) ? `${texts.get(j)} ` : '') + labelText(label, control));
      }
      for (const [j, text] of texts) strs[PAGE_STRS + j * STR_FIELDS + S_LABELS] = clean(text, MAX_TEXT);
    }

    measure(nums, elements, clipEls, clipParent, frames);

    const count = elements.length;
    const meta = new Float64Array(W.META_LEN);
    meta[W.M_VERSION] = WIRE_VERSION;
    meta[W.M_VIEWPORT_W] = vw;
    meta[W.M_VIEWPORT_H] = vh;
    meta[W.M_SCANNED] = scanned;
    meta[W.M_NODES] = count;
    return {
      meta,
      // How many elements were walked without a style read; -1: the
      // analysis gave up (or was not asked for) and every one was read.
      plain: styled === null ? -1 : plainCount,
      nums: nums.subarray(0, count * NUM_STRIDE),
      strs: strs.join(SEP),
      elements,
      frames,
      ids: (i) => nums[i * NUM_STRIDE + N_STABLE_ID],
    };
  }

  // A fresh id from the same never-reused sequence, for elements of child
  // frames merged into this frame's snapshot (extension/content/frames.js).
  function reserveId() {
    return nextId++;
  }

  return { collect, idOf, reserveId, firstRole, ariaOption, idrefText };
})();
