// Ad-hoc oracle for walker-ablation.mjs (ABLATE_SETUP): marks the elements
// whose style reads tell the walker nothing beyond inheritance, the upper
// bound of any style-sheet analysis that skips reads (docs/benchmarks.md).
(() => {
  // Oracle: elements whose style reads tell the walker nothing beyond
  // inheritance (cursor as parent's, position static, display not none/contents),
  // with no interesting attributes and an ordinary tag.
  const BORING = new Set(['class', 'id', 'style', 'lang', 'dir', 'data-testid', 'width', 'height', 'src', 'srcset', 'loading', 'decoding']);
  const SPECIAL = new Set(['a', 'area', 'button', 'input', 'select', 'textarea', 'img', 'summary', 'label', 'form', 'svg', 'canvas', 'search', 'iframe', 'frame', 'slot', 'html', 'body', 'details', 'dialog', 'script', 'style', 'head', 'template', 'noscript', 'object', 'video', 'audio']);
  const plain = new WeakSet();
  let n = 0, all = 0;
  for (const el of document.getElementsByTagName('*')) {
    all++;
    const t = el.localName;
    if (SPECIAL.has(t) || t.includes('-') || el.shadowRoot) continue;
    if (el.getAttributeNames().some((a) => !BORING.has(a))) continue;
    if (el.hasAttribute('style')) continue;
    const cs = getComputedStyle(el);
    const p = el.parentElement ? getComputedStyle(el.parentElement) : null;
    if (cs.display === 'none' || cs.display === 'contents' || cs.position !== 'static') continue;
    if (!p || cs.cursor !== p.cursor) continue;
    plain.add(el);
    n++;
  }
  globalThis.__plain = plain;
  return `${n} of ${all} elements plain`;
})()
