// Ad-hoc prototype for walker-ablation.mjs (ABLATE_SETUP), the real
// counterpart of oracle-plain.js: marks "plain" elements (no style rule can
// give them their own cursor, a position or display none/contents) from the
// page's style sheets instead of from their computed styles, times that
// analysis, and counts its mistakes against the oracle (docs/benchmarks.md).
// Document sheets only: shadow-tree elements are never marked.
(() => {
  const t0 = performance.now();
  const BORING = new Set(['class', 'id', 'lang', 'dir', 'data-testid', 'width', 'height', 'src', 'srcset', 'loading', 'decoding']);
  const SPECIAL = new Set(['a', 'area', 'button', 'input', 'select', 'textarea', 'img', 'summary', 'label', 'form', 'svg', 'canvas', 'search', 'iframe', 'frame', 'slot', 'html', 'body', 'details', 'dialog', 'script', 'style', 'head', 'template', 'noscript', 'object', 'video', 'audio', 'title', 'meta', 'link', 'base']);
  const SAFE_DISPLAY = /^(block|inline|inline-block|flex|inline-flex|grid|inline-grid|table[a-z-]*|list-item|flow-root)$/;
  const selectors = [];
  let fallback = null;
  let rules = 0;
  const matters = (st) => st.getPropertyValue('cursor') !== '' || st.getPropertyValue('position') !== '' || st.getPropertyValue('all') !== '' || (st.getPropertyValue('display') !== '' && !SAFE_DISPLAY.test(st.getPropertyValue('display')));
  const visit = (list) => {
    for (const r of list) {
      rules++;
      if (r instanceof CSSStyleRule) {
        if (matters(r.style)) selectors.push(r.selectorText);
        if (r.cssRules && r.cssRules.length) fallback ||= 'nested rules';
      } else if (r instanceof CSSMediaRule) {
        if (matchMedia(r.conditionText || r.media.mediaText).matches) visit(r.cssRules);
      } else if (r instanceof CSSSupportsRule) {
        if (CSS.supports(r.conditionText)) visit(r.cssRules);
      } else if (r instanceof CSSImportRule) {
        if (r.styleSheet) visitSheet(r.styleSheet);
      } else if (r instanceof CSSKeyframesRule) {
        for (const k of r.cssRules) if (matters(k.style)) fallback ||= 'keyframes animate cursor/position/display';
      } else if (r.cssRules) visit(r.cssRules); // @layer, @container, @scope: as if they applied
    }
  };
  const visitSheet = (sheet) => {
    if (sheet.disabled) return;
    let list;
    try {
      list = sheet.cssRules;
    } catch (e) {
      fallback ||= 'cross-origin sheet';
      return;
    }
    visit(list);
  };
  for (const sheet of document.styleSheets) visitSheet(sheet);
  for (const sheet of document.adoptedStyleSheets || []) visitSheet(sheet);
  const matched = new Set();
  if (selectors.length) {
    try {
      for (const el of document.querySelectorAll(selectors.join(','))) matched.add(el);
    } catch (e) {
      fallback ||= `selector: ${e.message}`;
    }
  }
  const analysed = performance.now() - t0;
  const plain = new WeakSet();
  let n = 0;
  let all = 0;
  if (!fallback) {
    for (const el of document.getElementsByTagName('*')) {
      all++;
      const t = el.localName;
      if (SPECIAL.has(t) || t.includes('-') || el.shadowRoot || matched.has(el)) continue;
      if (el.getAttributeNames().some((a) => !BORING.has(a))) continue;
      plain.add(el);
      n++;
    }
  }
  const ms = performance.now() - t0;
  // Mistakes: marked plain, yet its computed style says otherwise.
  let wrong = 0;
  for (const el of document.getElementsByTagName('*')) {
    if (!plain.has(el)) continue;
    const cs = getComputedStyle(el);
    const p = el.parentElement ? getComputedStyle(el.parentElement) : null;
    if (cs.display === 'none' || cs.display === 'contents' || cs.position !== 'static' || !p || cs.cursor !== p.cursor) wrong++;
  }
  globalThis.__plain = plain;
  return `${n} of ${all} elements plain from ${rules} rules (${selectors.length} that matter); rules + matching ${analysed.toFixed(2)} ms, marking (folded into the walk in a real walker) ${(ms - analysed).toFixed(1)} ms; ${wrong} wrong${fallback ? `; fallback: ${fallback}` : ''}`;
})()
