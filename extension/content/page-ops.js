// @ts-check
// The operations on this document's elements besides the snapshot:
// overlays (overlay.js draws them), actions by element id (actions.js does
// them; ids of child frames are routed to their frame, frames.js), the
// agent loop's page facts, and the highlight that shows people what an
// agent is about to act on.
'use strict';

globalThis.SentiencePageOps = (() => {
  /** @typedef {'full' | 'page'} Scope */
  /** @typedef {{success: boolean, error?: string, outcome?: string}} ActionResult */

  /** @param {string} error */
  function statusError(error) {
    return { status: 'error', error };
  }

  // ------------------------------------------------------------ overlays
  // window.sentience.showOverlay({ids?, duration?}): numbered boxes over the
  // last snapshot's elements (all of them by default). Ids that are not in
  // the last snapshot, or whose element has left the document, are reported
  // in `unknown`, never thrown.
  /**
   * @param {any} args
   * @param {Scope} scope
   */
  function showOverlay(args, scope) {
    const last = SentienceSnapshots.view(scope).last;
    if (args !== null && args !== undefined && (typeof args !== 'object' || Array.isArray(args))) return statusError('showOverlay: options must be an object {ids?, duration?}');
    const { ids, duration } = args || {};
    if (ids !== undefined && ids !== null && !Array.isArray(ids)) return statusError('showOverlay: ids must be an array of element ids');
    if (duration !== undefined && duration !== null && !(typeof duration === 'number' && Number.isFinite(duration) && duration >= 0)) {
      return statusError('showOverlay: duration must be a number of milliseconds >= 0 (0 or absent: until clearOverlay())');
    }
    if (last === null) return statusError('showOverlay: no snapshot yet: call snapshot() first');
    const elements = SentienceSnapshots.elementsOf(last);
    /** @type {Map<unknown, any>} */
    const byId = new Map();
    for (const e of elements) byId.set(e.id, e);
    /** @type {unknown[]} */
    const wanted = Array.isArray(ids) ? ids : elements.map((e) => e.id);
    const seen = new Set();
    /** @type {(number | string)[]} */
    const unknown = [];
    const list = [];
    for (const id of wanted) {
      if (seen.has(id)) continue;
      seen.add(id);
      const e = byId.get(id);
      const el = e ? SentienceSnapshots.registered(/** @type {number} */ (id)) : undefined;
      if (!e || (el && !el.isConnected)) {
        unknown.push(typeof id === 'number' || typeof id === 'string' ? id : String(id));
        continue;
      }
      // No live element (one this document does not hold): the snapshot's box, fixed.
      list.push({ id: /** @type {number} */ (id), el, role: e.role, primary: e.visual_cues.is_primary, bbox: el ? null : e.bbox });
    }
    const shown = SentienceOverlay.show(list, duration || 0);
    return { status: 'success', shown, unknown };
  }

  // ----------------------------------------------------------------- actions
  // The actions on an element of this document, by operation.
  /** @type {Record<'click' | 'type' | 'scroll' | 'select' | 'hover', (el: Element, args: any) => unknown>} */
  const ON_ELEMENT = {
    click: (el) => SentienceActions.click(el),
    hover: (el) => SentienceActions.hover(el),
    type: (el, args) => SentienceActions.type(el, args.text),
    scroll: (el, args) => SentienceActions.scroll(args, el),
    select: (el, args) => SentienceActions.select(el, args.value),
  };

  /**
   * @param {'click' | 'type' | 'press' | 'scroll' | 'select' | 'hover'} op
   * @param {any} args
   * @param {Scope} scope
   */
  async function act(op, args, scope) {
    const view = SentienceSnapshots.view(scope);
    args = args || {};
    // An action routed from the frame that took the snapshot names the
    // document its ids belong to.
    if (args.doc !== undefined && args.doc !== SentienceFrames.token) return { success: false, error: 'the frame has navigated since the snapshot (take a new snapshot)', outcome: 'none' };
    if (op === 'press') {
      const active = document.activeElement;
      if (view.focusedFrame && active && (active.localName === 'iframe' || active.localName === 'frame')) return SentienceFrames.call(view.focusedFrame, 'press', { key: args.key });
      return SentienceActions.press(args.key);
    }
    if (op === 'scroll' && args.id === undefined) return SentienceActions.scroll(args, null);
    const id = Number(args.id);
    if (!Number.isInteger(id)) return { success: false, error: `${op}: id must be an integer element id`, outcome: 'none' };
    const route = SentienceFrames.routeOf(id, scope);
    if (route) {
      if (op === 'click' || op === 'type') view.focusedFrame = route;
      return SentienceFrames.call(route, op, { ...args, id: route.localId });
    }
    // An element of a frame this caller may not reach (only the full scope
    // has routes into cross-origin frames): refused, nothing happens there.
    if (scope === 'page' && SentienceFrames.routeOf(id, 'full')) return { success: false, error: `${op}: element ${id} is in a frame of another origin: page scripts may not act there (docs/api.md "Who may see and do what")`, outcome: 'none' };
    const { el, error } = SentienceSnapshots.elementFor(id);
    if (error !== undefined) return { success: false, error, outcome: 'none' };
    return ON_ELEMENT[op](el, args);
  }

  // ------------------------------------------------- for the agent loop
  // Title, visible text, and for the given ids the ElementInfo (docs/contracts/run-api.md §12)
  // facts the agent server's policies use besides the snapshot fields
  // (docs/contracts/snapshot.md §3).
  /** @param {{ids?: unknown, doc?: unknown}} args */
  async function pageInfo({ ids, doc } = {}) {
    if (doc !== undefined && doc !== SentienceFrames.token) return { title: '', visibleText: '', elements: {} };
    /** @type {Record<number, any>} */
    const elements = {};
    const wanted = Array.isArray(ids) ? ids : [];
    // Frames of the last snapshot: their elements' facts and their visible
    // text, asked of each frame once (a form in an iframe is part of the page).
    /** @type {Map<number, {route: any, ids: [number, number][], text: string}>} */
    const byFrame = new Map();
    // (Only when asked as the driver: a frame asked by its driver answers for itself.)
    if (doc === undefined) for (const route of SentienceFrames.framesInSnapshot('full')) byFrame.set(route.frameId, { route, ids: [], text: '' });
    for (const id of wanted) {
      const route = SentienceFrames.routeOf(id, 'full');
      const frame = route && byFrame.get(route.frameId);
      if (frame) frame.ids.push([id, route.localId]);
    }
    await Promise.all(
      Array.from(byFrame.values(), async (f) => {
        const info = /** @type {any} */ (await SentienceFrames.call(f.route, 'page_info', { ids: f.ids.map((p) => p[1]) }));
        for (const [id, local] of f.ids) if (info && info.elements && info.elements[local]) elements[id] = info.elements[local];
        f.text = info && typeof info.visibleText === 'string' ? info.visibleText : '';
      }),
    );
    let text = document.body ? document.body.innerText : '';
    for (const f of byFrame.values()) if (f.text) text += ` ${f.text}`;
    /** @type {Map<Element, string>} */
    const rowWords = new Map();
    // A control repeated outside any row or list item ("Status" on each
    // card of a board, the "+" of each ticket tier, built of plain divs):
    // its card is the largest ancestor that holds no other control of the
    // same tag and name, so the card's words say which thing it acts on,
    // as a row's do (observed.rs DomFacts::row). Only repeated controls:
    // a control named once on the page is no item's of a list.
    /** @type {Map<string, Element[]>} */
    const sameName = new Map();
    /** @type {Map<Element, string>} */
    const keyOf = new Map();
    // Each control's name as the DOM gives it (aria-label, its labels,
    // placeholder, title): sent as `ariaLabel` below, and, else its text,
    // what groups the same control repeated.
    /** @type {Map<Element, string>} */
    const nameOf = new Map();
    // accname 1.2 §4.3.2 step 2B: `aria-labelledby` names a control before
    // anything else. Help desks and sign-in pages name their boxes only so
    // (a <div id> caption, a floating label <div>); without it an editable
    // combobox was named by its placeholder ("Select…") and a phrase naming
    // its label ("the Billing category") found no field. Read as the
    // snapshot's text reads it (walker.js `idrefText`).
    for (const id of wanted) {
      const el = /** @type {any} */ (SentienceSnapshots.registered(id));
      if (!el) continue;
      const labels = el.labels ? Array.from(/** @type {NodeListOf<HTMLLabelElement>} */ (el.labels), (l) => (l.textContent || '').trim()).join(' ') : '';
      const name = (SentienceWalker.idrefText(el, 'aria-labelledby') || el.getAttribute('aria-label') || labels || el.getAttribute('placeholder') || el.getAttribute('title') || '').replace(/\s+/g, ' ').trim();
      nameOf.set(el, name);
      const key = `${el.localName}|${(name || (el.textContent || '').replace(/\s+/g, ' ').trim()).slice(0, 80)}`;
      keyOf.set(el, key);
      const group = sameName.get(key);
      if (group) group.push(el);
      else sameName.set(key, [el]);
    }
    /** @param {Element} el @returns {Element | null} */
    const cardOf = (el) => {
      const group = sameName.get(keyOf.get(el) || '');
      // (A bounded walk: a list of hundreds is a table or list, with rows.)
      if (!group || group.length < 2 || group.length > 100) return null;
      const others = group.filter((o) => o !== el);
      /** @param {Element} box */
      const holdsAnother = (box) => others.some((o) => box.contains(o));
      let card = el.parentElement;
      if (!card || card === document.body || holdsAnother(card)) return null;
      for (let up = card.parentElement; up && up !== document.body && !holdsAnother(up); up = up.parentElement) card = up;
      return card;
    };
    for (const id of wanted) {
      const el = /** @type {any} */ (SentienceSnapshots.registered(id));
      if (!el) continue;
      const tag = el.localName;
      const type = tag === 'input' || tag === 'button' ? (el.getAttribute('type') || (tag === 'input' ? 'text' : 'submit')).toLowerCase() : undefined;
      /** @type {Record<string, unknown>} */
      const info = {
        tag,
        ariaLabel: (nameOf.get(el) || '').slice(0, 200),
        disabled: el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true',
      };
      if (type) info.type = type;
      // DomFacts (crates/snapshot-core/src/observed.rs): the ARIA role as
      // written, the form it belongs to (1 + its index), read-only fields.
      const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
      if (role) info.ariaRole = role;
      const form = el.form || el.closest('form');
      if (form) info.form = Array.prototype.indexOf.call(document.forms, form) + 1;
      if (el.readOnly) info.readOnly = true;
      // It opens a menu or listbox (observed.rs has_popup_attr): a row's "⋯".
      const popup = (el.getAttribute('aria-haspopup') || '').trim().toLowerCase();
      if (popup && popup !== 'false') info.hasPopup = true;
      // The row or list item it acts on (observed.rs DomFacts::row).
      // (Each row's words are read once: its controls share them, and
      // innerText lays the row out.)
      const row = (el.parentElement && el.parentElement.closest('tr,li,[role=row],[role=listitem]')) || cardOf(el);
      if (row) {
        if (!rowWords.has(row)) rowWords.set(row, (row.innerText || row.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 200));
        info.row = rowWords.get(row);
      }
      // A field that offers suggestions as one types (the rule of
      // crates/snapshot-core/src/observed.rs suggests_by_markup).
      if ((tag === 'input' || tag === 'textarea') && suggestsByMarkup(el, role)) info.suggests = true;
      // An icon with no words of its own: those of its id and classes.
      if (!info.ariaLabel && !(el.textContent || '').trim()) {
        const cls = typeof el.className === 'string' ? el.className : '';
        const words = `${el.id} ${cls}`.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/\s+/g, ' ').trim();
        if (words) info.hint = words.slice(0, 80);
      }
      if (el.getAttribute('name')) info.name = el.getAttribute('name');
      if (el.getAttribute('placeholder')) info.placeholder = el.getAttribute('placeholder');
      if ((tag === 'input' && type !== 'password' && type !== 'hidden') || tag === 'textarea') info.value = String(el.value).slice(0, 100);
      if (tag === 'select' && el.selectedOptions[0]) info.value = el.selectedOptions[0].text.slice(0, 100);
      if (tag === 'a' && el.href) info.href = el.href;
      elements[id] = info;
    }
    // The text keeps its line breaks (innerText breaks blocks, rows, <br>),
    // one "\n" each and no blank lines; everything else collapses to single
    // spaces, so the text without its breaks reads as it always did
    // (crates/agent/src/page/mod.rs `flatten`).
    const lines = text.replace(/[^\S\n]+/g, ' ').split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
    return { title: document.title, visibleText: lines.slice(0, 6000), elements };
  }

  /**
   * WAI-ARIA combobox / aria-autocomplete, a `list` attribute, or the class
   * a suggestion widget puts on its field (observed.rs suggests_by_markup).
   * @param {Element} el
   * @param {string} role its first role token, lower-case
   */
  function suggestsByMarkup(el, role) {
    const auto = (el.getAttribute('aria-autocomplete') || '').trim().toLowerCase();
    if (role === 'combobox' || auto === 'list' || auto === 'both' || auto === 'inline' || el.hasAttribute('list')) return true;
    const cls = typeof el.className === 'string' ? el.className.toLowerCase() : '';
    return cls.split(/\s+/).some((c) => SUGGEST_CLASS.some((w) => c.includes(w)));
  }
  const SUGGEST_CLASS = ['autocomplete', 'typeahead', 'combobox', 'suggest', 'tt-input', 'aa-input'];

  // The frame holding the held highlight (null: this one), so release
  // reaches it.
  /** @type {{frameId: number, token: string} | null} */
  let heldRoute = null;

  // Shows people what the agent is about to act on (overlay.js draws it):
  // for a moment, or with `hold` until `release` (a careful-mode question
  // about the element, answered in the side panel).
  /** @param {{id?: unknown, label?: unknown, hold?: unknown, release?: unknown}} args */
  async function highlight({ id, label, hold, release }) {
    if (release === true) {
      const route = heldRoute;
      heldRoute = null;
      const here = SentienceOverlay.release();
      if (route) await SentienceFrames.call(route, 'highlight', { release: true });
      return { success: true, outcome: 'none', released: here || Boolean(route) };
    }
    if (hold === true) await highlight({ release: true }); // one held highlight per tab
    const text = String(label || 'act').slice(0, hold === true ? 80 : 40);
    const route = SentienceFrames.routeOf(Number(id), 'full');
    if (route) {
      if (hold === true) heldRoute = route;
      return SentienceFrames.call(route, 'highlight', { id: route.localId, label: text, hold: hold === true });
    }
    const { el, error } = SentienceSnapshots.elementFor(Number(id));
    if (error !== undefined) return { success: false, error };
    if (hold === true) SentienceOverlay.hold(el, Number(id), text);
    else SentienceOverlay.highlight(el, Number(id), text);
    return { success: true, outcome: 'none' };
  }

  return { showOverlay, act, pageInfo, highlight };
})();
