// @ts-check
// Actions on snapshot ids: click, type, press, scroll, select, hover. Each dispatches the
// event sequence a real user produces (pointer, mouse, focus, keyboard,
// beforeinput/input/change), then reports what happened:
// `{success, error?, outcome}` with outcome "navigated" (the page began to
// unload or its URL changed), "dom_changed" (a mutation was observed) or
// "none".
//
// Synthetic events are untrusted (isTrusted=false); the default actions the
// platform still runs for them (link activation and form submission on
// click, checkbox toggling) happen, and the ones it does not (implicit form
// submission on Enter, focus moves on Tab, text deletion on Backspace) are
// performed here explicitly.
'use strict';

globalThis.SentienceActions = (() => {
  // How long an action waits for the page's reaction before it reports
  // its outcome (docs/api.md "Actions"). It waits only while the page is
  // changing: once the action's events have been handled and a frame has
  // passed, an action that changed nothing answers after `grace` ms, and
  // one that did waits until the DOM has been quiet for `quiet` ms (at most
  // SETTLE_MAX_MS, for pages that never settle: tickers, animations).
  // A keystroke's reactions (validation, a counter, a framework's
  // re-render) run in its own handlers or the next frame, so typing waits
  // for no more. A click's may start later without touching the DOM first:
  // a timer, a fetch answered from cache, a form submission (Chromium
  // starts its navigation a task later): a click waits its grace for them.
  // A reaction that starts later than that (a debounced suggestion list,
  // a slow fetch) is not in the outcome; the next snapshot has it.
  /** @typedef {{grace: number, quiet: number}} Settle */
  /** @type {Record<'keys' | 'pointer', Settle>} */
  const SETTLE = {
    keys: { grace: 0, quiet: 30 },
    pointer: { grace: 80, quiet: 100 },
  };
  const SETTLE_MAX_MS = 1500;
  // One frame: the page's requestAnimationFrame work has run (a frame is
  // not painted in a hidden tab, hence the timer).
  const FRAME_MS = 20;

  // The prototypes' value setters (both exist in every browser this runs in).
  const nativeValue = {
    input: /** @type {(this: HTMLInputElement, v: string) => void} */ (/** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')).set),
    textarea: /** @type {(this: HTMLTextAreaElement, v: string) => void} */ (/** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')).set),
  };

  /**
   * An action's failure value.
   * @param {string} error
   */
  function fail(error) {
    return { success: false, error, outcome: 'none' };
  }

  // Watches the page while an action runs: resolves the outcome once the
  // page has settled (SETTLE above), or at once when it starts to unload.
  /**
   * @param {() => any} act the action: null when done, or a failure value
   * @param {Settle} [settle]
   * @returns {Promise<{success: boolean, error?: string, outcome: string}>}
   */
  async function withOutcome(act, settle = SETTLE.pointer) {
    const startUrl = location.href;
    // When the DOM last changed (-Infinity: not since the action began).
    let lastChange = -Infinity;
    let unloading = false;
    /** @type {(() => void) | null} */
    let wake = null;
    const observer = new MutationObserver((records) => {
      // Showing or clearing our own overlay is not the page changing.
      if (globalThis.SentienceOverlay && records.every(SentienceOverlay.isOwnMutation)) return;
      lastChange = performance.now();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const onUnload = () => {
      unloading = true;
      if (wake) wake();
    };
    window.addEventListener('beforeunload', onUnload, true);
    window.addEventListener('pagehide', onUnload, true);
    /** @param {number} ms */
    const sleep = (ms) =>
      new Promise((resolve) => {
        wake = () => resolve(undefined);
        setTimeout(wake, ms);
      });
    try {
      const result = await act();
      if (result && result.success === false) return result;
      const started = performance.now();
      // A frame for the page's own reactions (rAF callbacks, a
      // framework's batched render), whichever comes first.
      await Promise.race([new Promise((resolve) => requestAnimationFrame(resolve)), sleep(FRAME_MS)]);
      while (!unloading) {
        const now = performance.now();
        // Changing: until quiet; unchanged: until the grace has passed.
        const until = Math.min(started + SETTLE_MAX_MS, Math.max(started + settle.grace, lastChange + settle.quiet));
        if (now >= until) break;
        await sleep(until - now);
      }
      const outcome = unloading || location.href !== startUrl ? 'navigated' : lastChange > -Infinity ? 'dom_changed' : 'none';
      return { success: true, outcome, ...(result || {}) };
    } catch (e) {
      return fail(`action failed: ${e instanceof Error ? e.message : e}`);
    } finally {
      observer.disconnect();
      window.removeEventListener('beforeunload', onUnload, true);
      window.removeEventListener('pagehide', onUnload, true);
    }
  }

  /** @typedef {{x: number, y: number}} Point */
  /**
   * The centre of `el` on screen, scrolled into view first when it is not.
   * @param {Element} el
   * @returns {Point}
   */
  function centre(el) {
    const r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      return centre.after(el);
    }
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }
  /** @param {Element} el */
  centre.after = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };

  /**
   * @param {Element} el
   * @param {string} type
   * @param {Point} point
   * @param {MouseEventInit} [extra]
   */
  function mouse(el, type, point, extra) {
    const init = {
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
      clientX: point.x,
      clientY: point.y,
      screenX: point.x + (window.screenX || 0),
      screenY: point.y + (window.screenY || 0),
      button: 0,
      buttons: type.endsWith('down') ? 1 : 0,
      detail: type === 'click' || type.startsWith('mouse') ? 1 : 0,
      ...extra,
    };
    if (type.startsWith('pointer')) return el.dispatchEvent(new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true }));
    return el.dispatchEvent(new MouseEvent(type, init));
  }

  /** @param {Element} el */
  function isDisabled(el) {
    return el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true';
  }

  /**
   * @param {any} el an element of the last snapshot
   */
  function click(el) {
    return withOutcome(() => {
      if (isDisabled(el)) return fail('element is disabled');
      const p = centre(el);
      // A real click lands on the innermost element under the pointer (the
      // <a> inside a role=tab <li>, the icon inside a button) and bubbles up
      // through ours; handlers bound to that inner element must see it. When
      // something else covers the point, the agent still means this element.
      const hit = document.elementFromPoint(p.x, p.y);
      const target = hit && (hit === el || el.contains(hit)) ? hit : el;
      mouse(target, 'pointerover', p);
      mouse(target, 'pointerenter', p, { bubbles: false });
      mouse(target, 'mouseover', p);
      mouse(target, 'mouseenter', p, { bubbles: false });
      mouse(target, 'pointermove', p);
      mouse(target, 'mousemove', p);
      // Both are dispatched whatever the first answers.
      const pointerDown = mouse(target, 'pointerdown', p);
      const downOk = mouse(target, 'mousedown', p) && pointerDown;
      const focusable = target.closest('a[href], button, input, select, textarea, summary, [tabindex], [contenteditable]') || el;
      if (downOk && typeof focusable.focus === 'function') focusable.focus({ preventScroll: true });
      mouse(target, 'pointerup', p);
      mouse(target, 'mouseup', p);
      mouse(target, 'click', p);
      return null;
    });
  }

  // The legacy keyCode of named keys: many widgets (jQuery UI's date
  // picker and slider) still read event.keyCode, not event.key.
  /** @type {Record<string, number>} */
  const KEY_CODES = { Backspace: 8, Tab: 9, Enter: 13, Escape: 27, ' ': 32, PageUp: 33, PageDown: 34, End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38, ArrowRight: 39, ArrowDown: 40, Delete: 46 };

  /**
   * The pointer moved onto the element (menus and tooltips that open on
   * hover listen for these; CSS :hover needs real input, which content
   * scripts cannot give).
   * @param {Element} el an element of the last snapshot
   */
  function hover(el) {
    return withOutcome(() => {
      const p = centre(el);
      const hit = document.elementFromPoint(p.x, p.y);
      const target = hit && (hit === el || el.contains(hit)) ? hit : el;
      mouse(target, 'pointerover', p);
      mouse(target, 'pointerenter', p, { bubbles: false });
      mouse(target, 'mouseover', p);
      mouse(target, 'mouseenter', p, { bubbles: false });
      mouse(target, 'pointermove', p);
      mouse(target, 'mousemove', p);
      return null;
    });
  }

  /**
   * @param {Element} el
   * @param {string} type
   * @param {string} k
   * @param {KeyboardEventInit} [extra]
   */
  function key(el, type, k, extra) {
    const code = k.length === 1 ? (/[a-z]/i.test(k) ? `Key${k.toUpperCase()}` : /[0-9]/.test(k) ? `Digit${k}` : '') : k;
    const keyCode = KEY_CODES[k] ?? (k.length === 1 ? k.toUpperCase().charCodeAt(0) : 0);
    return el.dispatchEvent(
      new KeyboardEvent(type, { key: k, code, keyCode, which: keyCode, bubbles: true, cancelable: true, composed: true, view: window, ...extra }),
    );
  }

  /**
   * @param {HTMLInputElement | HTMLTextAreaElement} el
   * @param {string} value
   */
  function setNativeValue(el, value) {
    // The prototype's setter, not the instance's: frameworks (React) track
    // values through an own-property override that would swallow the change.
    if (el.localName === 'textarea') nativeValue.textarea.call(/** @type {HTMLTextAreaElement} */ (el), value);
    else nativeValue.input.call(/** @type {HTMLInputElement} */ (el), value);
  }

  /**
   * @param {any} el an editable element
   * @param {string} ch
   */
  function insertChar(el, ch) {
    if (!key(el, 'keydown', ch)) return;
    key(el, 'keypress', ch, { charCode: ch.charCodeAt(0) });
    const before = new InputEvent('beforeinput', { inputType: 'insertText', data: ch, bubbles: true, cancelable: true, composed: true });
    if (el.dispatchEvent(before)) {
      if (el.isContentEditable) {
        document.execCommand('insertText', false, ch);
      } else {
        setNativeValue(el, el.value + ch);
        el.dispatchEvent(new InputEvent('input', { inputType: 'insertText', data: ch, bubbles: true, composed: true }));
      }
    }
    key(el, 'keyup', ch);
  }

  // Input types whose value is set whole by type() (see there).
  const WHOLE_VALUE = /^(date|time|datetime-local|month|week|number|range|color)$/;

  /**
   * @param {any} el an element of the last snapshot (any editable element)
   * @param {unknown} text
   */
  function type(el, text) {
    // An ARIA listbox (the contract's combobox) takes the typed text as the
    // option to choose, like a <select>.
    if (SentienceWalker.firstRole(el.getAttribute('role')) === 'listbox') return select(el, text);
    return withOutcome(() => {
      if (typeof text !== 'string') return fail('type(id, text): text must be a string');
      if (isDisabled(el)) return fail('element is disabled');
      if (el.readOnly) return fail('element is read-only');
      if (el.localName === 'select') return chooseOption(el, text);
      const editable = el.isContentEditable;
      const textLike = el.localName === 'textarea' || (el.localName === 'input' && !/^(checkbox|radio|button|submit|reset|image|file|range|color|hidden)$/.test(el.type));
      if (!editable && !textLike && !WHOLE_VALUE.test(el.type)) return fail(`element <${el.localName}> does not accept text`);
      // Dates, times, numbers, ranges and colours take their value whole
      // (a date input holds "2016-10-11", never "2" then "20"), as a
      // picker sets it.
      if (el.localName === 'input' && WHOLE_VALUE.test(el.type)) {
        el.focus({ preventScroll: true });
        setNativeValue(el, text);
        if (text !== '' && el.value === '') return fail(`"${text}" is not a valid value for <input type=${el.type}>`);
        el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
        return null;
      }
      const p = centre(el);
      mouse(el, 'mousedown', p);
      el.focus({ preventScroll: true });
      mouse(el, 'mouseup', p);
      mouse(el, 'click', p);
      // type() replaces the current value, like a user selecting all first.
      if (editable) {
        const selection = document.getSelection();
        if (selection) selection.selectAllChildren(el);
        document.execCommand('delete', false);
      } else if (el.value !== '') {
        setNativeValue(el, '');
        el.dispatchEvent(new InputEvent('input', { inputType: 'deleteContentBackward', bubbles: true, composed: true }));
      }
      for (const ch of text) insertChar(el, ch);
      if (!editable) el.dispatchEvent(new Event('change', { bubbles: true }));
      return null;
    }, SETTLE.keys);
  }

  /**
   * @param {HTMLSelectElement} select
   * @param {string} text
   */
  function chooseOption(select, text) {
    const options = Array.from(select.options);
    const option = matchOption(options, text, (o) => o.value, (o) => o.text);
    if (!option) return fail(`no option matching "${text}" in <select> (options: ${optionNames(options, (o) => o.text)})`);
    if (option.disabled) return fail(`option "${option.text.trim()}" is disabled`);
    select.focus({ preventScroll: true });
    select.value = option.value;
    option.selected = true;
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return null;
  }

  // The first ten options' names, for error messages.
  /**
   * @template T
   * @param {T[]} options
   * @param {(o: T) => string} textOf
   */
  function optionNames(options, textOf) {
    const names = options.slice(0, 10).map((o) => JSON.stringify(textOf(o).trim())).join(', ');
    return `${names || 'none'}${options.length > 10 ? ', …' : ''}`;
  }

  // The option of `options` that `wanted` names: its value, else its text
  // (case-insensitive), else the first whose text contains it.
  /**
   * @template T
   * @param {T[]} options
   * @param {string} wanted
   * @param {(o: T) => string} valueOf
   * @param {(o: T) => string} textOf
   * @returns {T | undefined}
   */
  function matchOption(options, wanted, valueOf, textOf) {
    const w = wanted.trim().toLowerCase();
    return (
      options.find((o) => valueOf(o) === wanted) ||
      options.find((o) => textOf(o).trim().toLowerCase() === w) ||
      (w ? options.find((o) => textOf(o).trim().toLowerCase().includes(w)) : undefined)
    );
  }

  // The same name and value the snapshot's state.options reports.
  const ariaValue = (/** @type {Element} */ o) => SentienceWalker.ariaOption(o).value;
  const ariaText = (/** @type {Element} */ o) => SentienceWalker.ariaOption(o).text;

  /**
   * Chooses an option by value or text: on a <select> (focus, input, change,
   * as when a user picks from its popup), or on an ARIA listbox / a
   * combobox that controls one (a real click on the option, after opening a
   * collapsed combobox with a click).
   * @param {any} el a <select>, or an ARIA listbox or combobox
   * @param {unknown} wanted an option's value or text
   */
  async function select(el, wanted) {
    if (typeof wanted !== 'string') return fail('select(id, option): the option must be a string (its value or text)');
    if (isDisabled(el)) return fail('element is disabled');
    if (el.localName === 'select') return withOutcome(() => chooseOption(el, wanted));
    const role = SentienceWalker.firstRole(el.getAttribute('role'));
    let list = role === 'listbox' ? el : null;
    if (role === 'combobox') {
      const ref = (el.getAttribute('aria-controls') || el.getAttribute('aria-owns') || '').trim().split(/\s+/)[0];
      const find = () => (ref ? el.getRootNode().getElementById(ref) : null);
      if (el.getAttribute('aria-expanded') === 'false' || !find()) {
        const opened = await click(el);
        if (!opened.success) return opened;
      }
      list = find();
      if (!list) return fail('select: this combobox controls no listbox (aria-controls); click it and then the option');
    }
    if (!list) return fail(`select: element <${el.localName}${role ? ` role=${role}` : ''}> is not a <select>, listbox or combobox; click the option instead`);
    const options = Array.from(list.querySelectorAll('[role=option]'));
    const option = matchOption(options, wanted, ariaValue, ariaText);
    if (!option) return fail(`select: no option matching "${wanted}" (options: ${optionNames(options, ariaText)})`);
    return click(option);
  }

  const FOCUSABLE =
    'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable=""], [contenteditable=true]';

  /**
   * @param {unknown} k KeyboardEvent.key, e.g. "Enter"
   */
  function press(k) {
    return withOutcome(() => {
      if (typeof k !== 'string' || k.length === 0) return fail('press(key): key must be a non-empty string such as "Enter"');
      const el = /** @type {HTMLInputElement} */ (document.activeElement || document.body);
      const proceed = key(el, 'keydown', k);
      if (proceed && k.length === 1) return insertChar.afterKeydown(el, k);
      if (proceed) {
        if (k === 'Enter') {
          const form = el.form;
          if (form && el.localName === 'input') form.requestSubmit();
          else if (el.localName === 'a' || el.localName === 'button') el.click();
        } else if (k === 'Tab') {
          const all = Array.from(document.querySelectorAll(FOCUSABLE)).filter((e) => e.getClientRects().length > 0);
          const next = all[(all.indexOf(el) + 1) % Math.max(all.length, 1)];
          if (next) /** @type {HTMLElement} */ (next).focus();
        } else if (k === 'Backspace' && 'value' in el && typeof el.value === 'string' && !el.readOnly) {
          setNativeValue(el, el.value.slice(0, -1));
          el.dispatchEvent(new InputEvent('input', { inputType: 'deleteContentBackward', bubbles: true, composed: true }));
        }
      }
      key(el, 'keyup', k);
      return null;
    });
  }
  // A printable key pressed on its own types that character.
  /**
   * @param {any} el the focused element
   * @param {string} ch
   */
  insertChar.afterKeydown = (el, ch) => {
    key(el, 'keypress', ch, { charCode: ch.charCodeAt(0) });
    if ('value' in el && typeof el.value === 'string' && !el.readOnly) {
      setNativeValue(el, el.value + ch);
      el.dispatchEvent(new InputEvent('input', { inputType: 'insertText', data: ch, bubbles: true, composed: true }));
    } else if (el.isContentEditable) {
      document.execCommand('insertText', false, ch);
    }
    key(el, 'keyup', ch);
    return null;
  };

  /**
   * The nearest ancestor of `el` (across shadow roots) that scrolls its
   * content vertically, short of the document's own scrolling (the page
   * scroll is `scroll` without an element).
   * @param {Element} el
   * @returns {Element | null}
   */
  function scrollerAround(el) {
    for (let up = el.parentElement || /** @type {any} */ (el.getRootNode()).host; up; up = up.parentElement || /** @type {any} */ (up.getRootNode()).host) {
      if (up === document.body || up === document.documentElement || up === document.scrollingElement) return null;
      const oy = getComputedStyle(up).overflowY;
      if ((oy === 'auto' || oy === 'scroll' || oy === 'overlay') && up.scrollHeight > up.clientHeight + 1) return up;
    }
    return null;
  }

  /**
   * @param {{dx?: unknown, dy?: unknown, within?: unknown}} target the page scroll when `el` is null; with `within`, how far the element's own content scrolls
   * @param {any} el an element of the last snapshot, or null
   */
  function scroll(target, el) {
    return withOutcome(() => {
      if (el) {
        // `within`: the element's own content ("to the bottom of the
        // textarea"), or, when it does not scroll itself, the nearest box
        // around it that does, as a wheel over it scrolls (a row of a
        // virtualised list: its box scrolls, the row does not; a box that
        // holds controls is no focusable scroller, so the snapshot lists
        // the row, not the box); else the element into view.
        const box = target.within ? (el.scrollHeight > el.clientHeight + 1 ? el : scrollerAround(el)) : null;
        if (box) {
          const dy = Number(target.dy) || 0;
          box.scrollTop = Math.max(0, Math.min(box.scrollHeight, box.scrollTop + dy));
          box.dispatchEvent(new Event('scroll'));
          return null;
        }
        el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
        return null;
      }
      const dx = Number(target.dx) || 0;
      const dy = Number(target.dy) || 0;
      if (!Number.isFinite(dx) || !Number.isFinite(dy)) return fail('scroll({dx, dy}): numbers expected');
      window.scrollBy({ left: dx, top: dy, behavior: 'instant' });
      return null;
    });
  }

  return { click, type, press, scroll, select, hover };
})();
