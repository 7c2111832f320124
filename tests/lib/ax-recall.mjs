// Recall of Chromium's accessibility tree by the snapshot (docs/benchmarks.md "Real pages"), shared
// by tests/e2e/ax-agreement.test.mjs (fixture pages) and
// tests/bench/real-pages-snapshot.mjs (real saved pages).
//
// Chromium's nodes: those of CDP Accessibility.getFullAXTree (top document)
// that are not ignored, have an actionable role (ACTIONABLE) and whose DOM
// element has a box of at least 1×1 px and computed visibility `visible`.
// One counts as found when a snapshot element stands for it: the same
// element; else an element not standing for another node, inside it (a
// card link listed by its inner heading link) or around it. Each snapshot
// element stands for one node at most.
export const ACTIONABLE = new Set(['link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'switch', 'combobox', 'listbox', 'slider', 'spinbutton', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'DisclosureTriangle']);
const CONTRACT_ACTIONABLE = new Set(['button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox']);
// As tests/e2e/ax-agreement.test.mjs.
export const ROLE_MAP = {
  button: ['button'], link: ['link'], textbox: ['textbox'], searchbox: ['searchbox', 'textbox'],
  checkbox: ['checkbox'], switch: ['checkbox'], radio: ['radio'], combobox: ['combobox', 'searchbox', 'textbox'],
  listbox: ['combobox'], spinbutton: ['textbox'], slider: ['textbox', 'generic'],
  DisclosureTriangle: ['button'], menuitem: ['button', 'link'], tab: ['button', 'link'],
  menuitemcheckbox: ['checkbox'], menuitemradio: ['radio'],
};


/**
 * {total, found, exact, role_ok, name_ok, dup_elements, misses[]}: Chromium's
 * visible actionable nodes on `page` against a fresh default snapshot.
 * exact: nodes whose element is itself a snapshot element (role_ok/name_ok
 * count agreement among those); dup_elements: snapshot elements of
 * actionable roles that stand for, or lie inside, a found node.
 */
export async function axRecall(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const ax = nodes.filter((n) => !n.ignored && n.role && ACTIONABLE.has(n.role.value) && n.backendDOMNodeId);
    // Each AX node's DOM node into a page-world array, in order.
    await cdp.send('Runtime.evaluate', { expression: 'window.__axNodes = []' });
    const kept = [];
    for (const n of ax) {
      try {
        const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.backendDOMNodeId });
        await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: 'function () { window.__axNodes.push(this); }' });
        await cdp.send('Runtime.releaseObject', { objectId: object.objectId });
        kept.push({ role: n.role.value, name: n.name ? String(n.name.value) : '' });
      } catch {
        // a node of another document (a frame's): not compared
      }
    }
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      returnByValue: true,
      awaitPromise: true,
      expression: `(async (kept) => {
        const snap = await window.sentience.snapshot();
        const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, 100);
        const els = snap.elements.map((e) => ({ e, el: window.sentience_registry[e.id] })).filter((x) => x.el);
        const byEl = new Map(els.map((x) => [x.el, x.e]));
        const visible = (el) => {
          const r = el.getBoundingClientRect();
          return r.width >= 1 && r.height >= 1 && getComputedStyle(el).visibility === 'visible';
        };
        const out = { total: 0, found: 0, exact: 0, role_ok: 0, name_ok: 0, dup_elements: 0, misses: [] };
        const nodes = [];
        for (let i = 0; i < window.__axNodes.length; i++) {
          const el = window.__axNodes[i];
          if (el instanceof Element && el.isConnected && visible(el)) nodes.push({ el, k: kept[i], pick: byEl.get(el) || null });
        }
        // One snapshot element stands for one AX node at most: the same node
        // first; else an unused element inside it, else one around it.
        const used = new Set(nodes.filter((n) => n.pick).map((n) => n.pick));
        for (const n of nodes) {
          if (n.pick) continue;
          const inside = els.find((x) => !used.has(x.e) && n.el.contains(x.el));
          const around = inside || els.find((x) => !used.has(x.e) && x.el.contains(n.el));
          if (around) {
            n.pick = around.e;
            used.add(around.e);
          }
        }
        const actionable = ${JSON.stringify([...CONTRACT_ACTIONABLE])};
        const near = new Set();
        for (const { el, k, pick } of nodes) {
          out.total++;
          if (!pick) {
            out.misses.push({ role: k.role, name: norm(k.name).slice(0, 60), tag: el.localName, cls: String(el.getAttribute('class') || '').slice(0, 60), y: Math.round(el.getBoundingClientRect().y) });
            continue;
          }
          out.found++;
          for (const x of els) if (x.e === pick || (actionable.includes(x.e.role) && el.contains(x.el))) near.add(x.e);
          if (byEl.get(el) === pick) {
            out.exact++;
            if ((${JSON.stringify(ROLE_MAP)}[k.role] || []).includes(pick.role)) out.role_ok++;
            if (norm(pick.text) === norm(k.name)) out.name_ok++;
          }
        }
        out.dup_elements = near.size;
        delete window.__axNodes;
        return out;
      })(${JSON.stringify(kept)})`,
    });
    if (exceptionDetails) throw new Error(`axRecall: ${exceptionDetails.exception?.description || exceptionDetails.text}`);
    return result.value;
  } finally {
    await cdp.detach();
  }
}

