// @ts-check
// A run's steps as a list, the same live and in the history: each action
// with the element it acts on (text and role), the value typed (masked in
// password fields: run/tools.js never stores it), ✓ or ✗ with the error,
// how long it took; questions and answers, reflections where they were
// made, the end. Drawn again line by line: a line that did not change is
// left alone, so the list does not flicker and screen readers hear only
// what is new.
'use strict';

globalThis.SentienceSteps = (() => {
  const U = SentiencePanelUtil;

  /**
   * @param {string} tag
   * @param {string} [className]
   * @param {string} [text]
   */
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {string} text */
  const quoted = (text) => `“${text.length > 80 ? `${text.slice(0, 79)}…` : text}”`;

  /**
   * What a tool acts on, in words: the element, or the address, key or direction.
   * @param {SentienceRunLogEntry} e
   * @returns {Node[]}
   */
  function target(e) {
    const p = e.params || {};
    const name = e.label || e.target;
    if (name) return [el('span', 'target', ` ${quoted(name)}`), ...(e.role ? [el('span', 'role', ` ${e.role}`)] : [])];
    if (e.tool === 'navigate' && p.url) return [el('span', 'target url', ` ${p.url}`)];
    if (e.tool === 'press') return [el('span', 'target', ` ${p.key ?? 'Enter'}`)];
    if (e.tool === 'scroll') return [el('span', 'target', ` ${p.direction || (Number(p.dy) < 0 ? 'up' : 'down')}`)];
    if (p.id !== undefined) return [el('span', 'role', ` element ${p.id}`)];
    return [];
  }

  /**
   * @param {SentienceRunLogEntry} e
   * @param {boolean | 'paused'} live the run goes on (a tool without a result is under way), or is paused
   * @returns {HTMLLIElement}
   */
  function toolLine(e, live) {
    const r = e.result;
    // A proposed action waits while the run is paused (it runs on resume).
    const state = r ? (r.success ? 'ok' : 'fail') : live === 'paused' ? 'held' : live ? 'pending' : 'unknown';
    const li = /** @type {HTMLLIElement} */ (el('li', `step ${state}`));
    li.append(el('span', 'icon', { ok: '✓', fail: '✗', pending: '…', held: '‖', unknown: '–' }[state]));
    li.querySelector('.icon')?.setAttribute('aria-hidden', 'true');
    li.append(' ', el('span', 'visually-hidden', { ok: 'Done: ', fail: 'Failed: ', pending: 'Under way: ', held: 'Next, once resumed: ', unknown: 'Outcome unknown: ' }[state]));
    li.append(el('span', 'tool', e.tool || '?'), ...target(e));
    const p = e.params || {};
    const typed = p.text ?? p.value;
    if (e.tool === 'type' && typed !== undefined) {
      li.append(el('span', 'typed', ` ← ${e.masked ? String(typed) : quoted(String(typed))}`));
      if (e.masked) li.append(el('span', 'visually-hidden', ' (a password, hidden)'));
    }
    if (typeof e.ms === 'number') li.append(' ', el('span', 'ms', U.duration(e.ms)));
    if (r && !r.success && r.error) li.append(' ', el('span', 'why', String(r.error)));
    return li;
  }

  /**
   * A question, marked in the icon column like an action (the server's
   * own "⚠" prefix would be a second mark beside it).
   * @param {SentienceRunLogEntry} e
   * @returns {HTMLLIElement}
   */
  function askLine(e) {
    const li = /** @type {HTMLLIElement} */ (el('li', 'step note asked'));
    li.append(el('span', 'icon', '?'), ' ', `Asked: ${(e.text || '').replace(/^\s*⚠\uFE0F?\s*/, '')}`);
    li.querySelector('.icon')?.setAttribute('aria-hidden', 'true');
    return li;
  }

  /** How each kind of log line reads (run/run-loop.js writes them). @type {Record<string, (e: SentienceRunLogEntry) => HTMLLIElement>} */
  const LINES = {
    ask: (e) => askLine(e),
    answer: (e) => /** @type {HTMLLIElement} */ (el('li', 'step note', `You ${e.text || ''}`)),
    finish: (e) => /** @type {HTMLLIElement} */ (el('li', 'step ok finish', `Finished${e.text ? `: ${e.text}` : ''}`)),
    error: (e) => /** @type {HTMLLIElement} */ (el('li', 'step fail', `Stopped by an error: ${e.text || ''}`)),
    cancelled: (e) => /** @type {HTMLLIElement} */ (el('li', 'step note', `Stopped: ${e.text || ''}`)),
    paused: () => /** @type {HTMLLIElement} */ (el('li', 'step note', 'Paused')),
    resumed: () => /** @type {HTMLLIElement} */ (el('li', 'step note', 'Resumed')),
  };

  /**
   * @param {any} r a reflection (crates/agent Reflection)
   * @returns {HTMLLIElement}
   */
  function reflectionLine(r) {
    const issues = Array.isArray(r.issues) && r.issues.length ? ` ${r.issues.join('; ')}` : '';
    const next = Array.isArray(r.suggestions) && r.suggestions.length ? ` → ${r.suggestions.join('; ')}` : '';
    return /** @type {HTMLLIElement} */ (el('li', 'step reflection', `Reflection after step ${r.stepNumber}: efficiency ${r.efficiency}.${issues}${next}`));
  }

  /**
   * The run's lines in order, each with a key and what it shows (to redraw
   * only lines that changed): log lines, and each reflection after the
   * last line of the step it looked back from.
   * @param {SentienceRun} run
   * @returns {{key: string, sig: string, draw: () => HTMLLIElement}[]}
   */
  function lines(run) {
    const live = SentienceProtocol.TERMINAL_STATUSES.includes(run.status) ? false : run.paused ? 'paused' : true;
    /** @type {{key: string, sig: string, draw: () => HTMLLIElement, step: number}[]} */
    /** @type {Map<string, number>} */
    const seen = new Map();
    // Keys from the lines themselves, not their places: the log keeps its
    // last lines only (run-loop.js MAX_LOG), so places shift.
    const keyOf = (/** @type {SentienceRunLogEntry} */ e) => {
      const base = `l${e.at}:${e.kind}:${e.tool || ''}`;
      const n = (seen.get(base) || 0) + 1;
      seen.set(base, n);
      return n > 1 ? `${base}#${n}` : base;
    };
    const out = run.log.map((e) => ({
      key: keyOf(e),
      sig: JSON.stringify(e) + (e.kind === 'tool' && !e.result ? String(live) : ''),
      step: e.step,
      draw: () => {
        const li = e.kind === 'tool' ? toolLine(e, live) : Object.prototype.hasOwnProperty.call(LINES, e.kind) ? LINES[e.kind](e) : /** @type {HTMLLIElement} */ (el('li', 'step note', `${e.kind}: ${e.text || ''}`));
        li.dataset.kind = e.kind;
        return li;
      },
    }));
    for (const [i, r] of (run.reflections || []).entries()) {
      const line = {
        key: `r${i}:${r.stepNumber}`,
        sig: JSON.stringify(r),
        step: r.stepNumber,
        draw: () => {
          const li = reflectionLine(r);
          li.dataset.kind = 'reflection';
          return li;
        },
      };
      let at = out.length;
      while (at > 0 && out[at - 1].step > r.stepNumber) at--;
      out.splice(at, 0, line);
    }
    return out;
  }

  /**
   * Brings `list` up to date with `run`'s lines.
   * @param {HTMLOListElement} list
   * @param {SentienceRun} run
   */
  function render(list, run) {
    const want = lines(run);
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    /** @type {Map<string, HTMLElement>} */
    const have = new Map();
    for (const li of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) have.set(li.dataset.key || '', li);
    /** @type {HTMLElement | null} */
    let prev = null;
    for (const line of want) {
      let li = have.get(line.key);
      if (!li || li.dataset.sig !== line.sig) {
        const fresh = line.draw();
        fresh.dataset.key = line.key;
        fresh.dataset.sig = line.sig;
        if (li) li.replaceWith(fresh);
        li = fresh;
      }
      have.delete(line.key);
      /** @type {ChildNode | null} */
      const next = prev ? prev.nextSibling : list.firstChild;
      if (next !== li) list.insertBefore(li, next);
      prev = li;
    }
    for (const stale of have.values()) stale.remove();
    if (nearBottom) list.scrollTop = list.scrollHeight;
  }

  return { render, lines };
})();
