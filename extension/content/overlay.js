// @ts-check
// What the agent sees, drawn on the page: numbered boxes over snapshot
// elements (set-of-mark, window.sentience.showOverlay) and the short-lived
// highlight of the element an action is about to use.
//
// Both live in ONE host element holding a CLOSED shadow root:
// - the page cannot style it: the host's inline style sets every property
//   (`all: initial`) with !important, which outranks any author rule, even
//   `* { display: none !important }`; page rules do not cross the shadow
//   boundary, and the page sees `host.shadowRoot === null`;
// - it changes nothing the agent measures: pointer-events:none keeps it out
//   of hit tests (elementFromPoint, clicks, occlusion), the walker skips
//   the host (walker.js asks `host()`), and action outcome detection
//   ignores its insertion and removal (`isOwnMutation`);
// - the page cannot remove it by accident: while something is shown, a
//   host taken out of the document is put back (a few times at most, so a
//   page that insists wins rather than looping).
// Boxes follow scrolling (any scroller), resizing and layout changes while
// shown.
'use strict';

globalThis.SentienceOverlay = (() => {
  const P = globalThis.SentienceOverlayPalette;
  const HOST_TAG = 'sentience-overlay';
  // Set through CSSOM (never a style attribute or a <style> element), which a
  // page's Content-Security-Policy style-src does not govern.
  const HOST_STYLE = [
    ['all', 'initial'],
    ['display', 'block'],
    ['position', 'fixed'],
    ['inset', '0'],
    ['width', 'auto'],
    ['height', 'auto'],
    ['margin', '0'],
    ['padding', '0'],
    ['border', '0'],
    ['overflow', 'hidden'],
    ['contain', 'strict'],
    ['pointer-events', 'none'],
    ['z-index', '2147483647'],
    ['visibility', 'visible'],
    ['opacity', '1'],
  ];
  const SHADOW_CSS = `
    .layer { position: absolute; inset: 0; }
    .layer.capture { display: none; }
    .box { position: absolute; box-sizing: border-box; border-style: solid; border-radius: 2px; }
    .tag { position: absolute; height: ${P.LABEL_HEIGHT}px; padding: 0 3px; font: bold ${P.LABEL_FONT}px/${P.LABEL_HEIGHT}px ui-monospace, monospace; color: #fff; white-space: nowrap; }
  `;
  const REFRESH_MS = 400; // catches layout changes that fire no scroll/resize
  const HIGHLIGHT_MS = 1500;
  const MAX_REATTACH = 20;

  /**
   * The host, and in its closed root the set-of-mark boxes' layer and the
   * action highlight's; made on first use.
   * @type {{host: HTMLElement, layer: HTMLElement, actLayer: HTMLElement} | null}
   */
  let parts = null;
  /** @typedef {{x: number, y: number, width: number, height: number}} Box */
  /** @type {{id: number, el: Element | null, bbox: Box | null, border: number, node: HTMLElement}[]} */
  let marks = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let clearTimer;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let refreshTimer;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let highlightTimer;
  let frameRequested = false;
  let reattached = 0;
  /** @type {MutationObserver | null} */
  let guard = null; // putting the host back

  function ensureHost() {
    if (!parts) {
      const host = document.createElement(HOST_TAG);
      for (const [name, value] of HOST_STYLE) host.style.setProperty(name, value, 'important');
      const root = host.attachShadow({ mode: 'closed' });
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(SHADOW_CSS);
      root.adoptedStyleSheets = [sheet];
      const layer = document.createElement('div');
      layer.className = 'layer';
      const actLayer = document.createElement('div');
      actLayer.className = 'layer';
      root.append(layer, actLayer);
      parts = { host, layer, actLayer };
    }
    const made = parts;
    if (!made.host.isConnected) document.documentElement.appendChild(made.host);
    if (!guard) {
      guard = new MutationObserver(() => {
        if (marks.length || made.actLayer.firstChild) reattach();
      });
      guard.observe(document.documentElement, { childList: true });
    }
    return made;
  }

  // Puts the host back after page code removed it (a bounded number of
  // times, so a page fighting it cannot make us loop).
  function reattach() {
    if (!parts || parts.host.isConnected || reattached >= MAX_REATTACH) return;
    reattached++;
    document.documentElement.appendChild(parts.host);
  }

  function detachIfIdle() {
    if (marks.length || (parts && parts.actLayer.firstChild)) return;
    if (guard) guard.disconnect();
    guard = null;
    if (parts) parts.host.remove();
  }

  /**
   * @param {number} id
   * @param {string} colour
   * @param {number} border
   * @param {string} labelText
   * @returns {HTMLElement}
   */
  function boxNode(id, colour, border, labelText) {
    const box = document.createElement('div');
    box.className = 'box';
    box.dataset.id = String(id);
    box.style.borderWidth = `${border}px`;
    box.style.borderColor = colour;
    const tag = document.createElement('span');
    tag.className = 'tag';
    tag.textContent = labelText;
    tag.style.background = colour;
    tag.style.left = `${-border}px`;
    box.appendChild(tag);
    return box;
  }

  // Places a box on a viewport rect; the label sits above the box, or
  // inside its top edge when there is no room above.
  /**
   * @param {HTMLElement} node
   * @param {Box} r
   * @param {number} border
   */
  function place(node, r, border) {
    node.style.transform = `translate(${r.x}px, ${r.y}px)`;
    node.style.width = `${r.width}px`;
    node.style.height = `${r.height}px`;
    /** @type {HTMLElement} */ (node.firstChild).style.top = r.y >= P.LABEL_HEIGHT ? `${-P.LABEL_HEIGHT - border}px` : `${-border}px`;
  }

  /**
   * @param {{el: Element | null, bbox: Box | null}} mark
   * @returns {Box | null}
   */
  function rectOf(mark) {
    if (mark.el) return mark.el.isConnected ? mark.el.getBoundingClientRect() : null;
    return mark.bbox;
  }

  function refresh() {
    frameRequested = false;
    if (!marks.length) return;
    reattach();
    for (const m of marks) {
      const r = rectOf(m);
      if (!r || r.width <= 0 || r.height <= 0) {
        m.node.style.display = 'none';
        continue;
      }
      m.node.style.display = '';
      place(m.node, r, m.border);
    }
  }

  function schedule() {
    if (frameRequested || !marks.length) return;
    frameRequested = true;
    requestAnimationFrame(refresh);
  }

  /**
   * Shows numbered boxes over `list` ([{id, el, role, primary, bbox}]: a live
   * element follows the page; without one, the snapshot bbox is drawn as
   * is), replacing what was shown. `duration` ms > 0 clears it by itself.
   * Returns the number of boxes.
   * @param {{id: number, el?: Element | null, role: string, primary: boolean, bbox?: {x: number, y: number, width: number, height: number} | null}[]} list
   * @param {number} duration
   * @returns {number}
   */
  function show(list, duration) {
    clear();
    const { layer } = ensureHost();
    reattached = 0;
    const fragment = document.createDocumentFragment();
    for (const item of list) {
      const border = item.primary ? P.BORDER_PRIMARY : P.BORDER;
      const node = boxNode(item.id, P.colourOf(item.role), border, String(item.id));
      marks.push({ id: item.id, el: item.el || null, bbox: item.bbox || null, border, node });
      fragment.appendChild(node);
    }
    layer.appendChild(fragment);
    refresh();
    document.addEventListener('scroll', schedule, { capture: true, passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    refreshTimer = setInterval(schedule, REFRESH_MS);
    if (duration > 0) clearTimer = setTimeout(clear, Math.min(duration, 2147483647));
    return marks.length;
  }

  /** Removes the set-of-mark boxes (the host goes when nothing is left). */
  function clear() {
    const had = marks.length;
    clearTimeout(clearTimer);
    clearInterval(refreshTimer);
    clearTimer = refreshTimer = undefined;
    document.removeEventListener('scroll', schedule, { capture: true });
    window.removeEventListener('resize', schedule);
    marks = [];
    if (parts) parts.layer.replaceChildren();
    detachIfIdle();
    return had;
  }

  /**
   * Shows people what the agent is about to act on: "click #12" for 1.5 s.
   * @param {Element} el
   * @param {number} id
   * @param {string} label
   */
  function highlight(el, id, label) {
    const { actLayer } = ensureHost();
    const r = el.getBoundingClientRect();
    const node = boxNode(id, P.ACTION, 3, `${label} #${id}`);
    node.style.background = 'rgba(194, 65, 12, .12)';
    place(node, { x: r.x - 3, y: r.y - 3, width: r.width + 6, height: r.height + 6 }, 3);
    actLayer.replaceChildren(node);
    clearTimeout(highlightTimer);
    highlightTimer = setTimeout(() => {
      actLayer.replaceChildren();
      detachIfIdle();
    }, HIGHLIGHT_MS);
  }

  /**
   * Runs `task` with the overlay hidden (screenshots show the page, not our
   * boxes: annotated ones get theirs drawn by the service worker). Hiding
   * happens inside the closed root, so the page observes no mutation.
   * @template T
   * @param {() => T | Promise<T>} task
   * @returns {Promise<T>}
   */
  async function hiddenDuring(task) {
    if (!parts || !parts.host.isConnected) return task();
    const { layer, actLayer } = parts;
    layer.classList.add('capture');
    actLayer.classList.add('capture');
    // Two frames: the hidden state must be composited before the capture.
    /** @type {Promise<void>} */
    const composited = new Promise((resolve) => {
      const fallback = setTimeout(resolve, 100);
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          clearTimeout(fallback);
          resolve();
        }),
      );
    });
    await composited;
    try {
      return await task();
    } finally {
      layer.classList.remove('capture');
      actLayer.classList.remove('capture');
    }
  }

  /**
   * True for a mutation record caused by showing or hiding the overlay.
   * @param {MutationRecord} record
   * @returns {boolean}
   */
  function isOwnMutation(record) {
    const host = parts && parts.host;
    if (!host) return false;
    if (record.target === host) return true;
    // The host is only ever a child of <html>. Called for every record while
    // an action's outcome is watched, so no arrays are built here.
    if (record.type !== 'childList' || record.target !== document.documentElement) return false;
    const { addedNodes, removedNodes } = record;
    if (addedNodes.length + removedNodes.length === 0) return false;
    for (const n of addedNodes) if (n !== host) return false;
    for (const n of removedNodes) if (n !== host) return false;
    return true;
  }

  return {
    show,
    clear,
    highlight,
    hiddenDuring,
    isOwnMutation,
    /** The host element, which the walker must skip (null before first use). */
    host: () => (parts ? parts.host : null),
  };
})();
