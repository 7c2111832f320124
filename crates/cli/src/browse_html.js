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
() => {
  const root = document.documentElement;
  const out = { html: '', ready: document.readyState, url: location.href };
  if (!root) return out;
  const live = root.querySelectorAll('input, textarea, select');
  if (live.length === 0) { out.html = root.outerHTML; return out; }
  const copy = document.implementation.createHTMLDocument('').importNode(root, true);
  const dead = copy.querySelectorAll('input, textarea, select');
  if (dead.length !== live.length) { out.html = root.outerHTML; return out; }
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
