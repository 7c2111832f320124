// The HTML `sentience browse` sends (docs/browse.md "What is sent"): a
// function of no arguments returning {html, ready, url}. Kept in its own file
// so the MiniWoB++ protocol bench (tests/bench/miniwob-browse.mjs) sends
// exactly what the client sends (crates/cli/src/browse_page.rs includes it).
//
// html is document.documentElement.outerHTML of a copy in which what was
// typed, ticked or chosen is written back as attributes (value, checked,
// selected; a textarea's text): outerHTML alone shows a form as it was
// loaded, and a server could not tell that a field is filled. Password
// fields are left as loaded (their value is never sent). The copy lives in
// an inert document (no custom-element constructors, no scripts), so the
// page is not touched.
//
// What the page does not render (hidden by its stylesheets: the second step
// of a sign-in, a closed menu, a checkout's later pages) is marked with the
// `hidden` attribute on the copy, on the outermost such element: the HTML
// alone cannot tell, and a server that sees those controls would act on
// them (the snapshot of the run loop and of `sentience act` leaves them
// out too). Options and other parts that never have a box of their own
// are left alone.
() => {
  const root = document.documentElement;
  const out = { html: '', ready: document.readyState, url: location.href };
  if (!root) return out;
  const copy = document.implementation.createHTMLDocument('').importNode(root, true);
  const BOXLESS = new Set(['head', 'script', 'style', 'template', 'noscript', 'option', 'optgroup', 'datalist', 'br', 'wbr', 'source', 'track', 'param', 'area', 'map', 'title', 'meta', 'link', 'base']);
  const shown = (el) => (typeof el.checkVisibility === 'function' ? el.checkVisibility() : el.getClientRects().length > 0);
  const liveAll = root.querySelectorAll('body *');
  const copyAll = copy.querySelectorAll('body *');
  if (liveAll.length === copyAll.length) {
    liveAll.forEach((el, i) => {
      if (BOXLESS.has(el.localName) || el.closest('select, svg, head, template') !== null && el.localName !== 'select' && el.localName !== 'svg') return;
      if (shown(el) || el.hasAttribute('hidden')) return;
      const parent = el.parentElement;
      if (parent && parent !== document.body && !shown(parent)) return;
      copyAll[i].setAttribute('hidden', '');
    });
  }
  const live = root.querySelectorAll('input, textarea, select');
  if (live.length === 0) { out.html = copy.outerHTML; return out; }
  const dead = copy.querySelectorAll('input, textarea, select');
  if (dead.length !== live.length) { out.html = copy.outerHTML; return out; }
  live.forEach((el, i) => {
    const c = dead[i];
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') c.toggleAttribute('checked', el.checked);
      else if (el.type !== 'password' && el.type !== 'file' && el.value !== (el.getAttribute('value') ?? '')) c.setAttribute('value', el.value);
    } else if (el instanceof HTMLTextAreaElement) {
      if (el.value !== el.defaultValue) c.textContent = el.value;
    } else if (el instanceof HTMLSelectElement) {
      [...el.options].forEach((o, j) => { if (c.options[j]) c.options[j].toggleAttribute('selected', o.selected); });
    }
  });
  out.html = copy.outerHTML;
  return out;
}
