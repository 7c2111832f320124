// The plain-JS floor every snapshot benchmark compares with: one pass
// reading getBoundingClientRect + getComputedStyle of every element, and
// the frames it must be evaluated in. Shared by tests/bench/snapshot-bench.mjs
// and tests/bench/real-pages-snapshot.mjs.

// The floor's pass, evaluated in a frame: its document, open shadow roots
// and (with enterFrames) the iframes whose documents this frame may read.
export function floorPass(enterFrames) {
  const t0 = performance.now();
  const roots = [document];
  let sink = 0;
  let count = 0;
  for (let k = 0; k < roots.length; k++) {
    const root = roots[k];
    const all = root.getElementsByTagName ? root.getElementsByTagName('*') : root.querySelectorAll('*');
    const view = (root.ownerDocument || root).defaultView || window;
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      const r = el.getBoundingClientRect();
      const cs = view.getComputedStyle(el);
      if (cs.display === 'none') sink++;
      sink += r.width > 0 ? 1 : 0;
      if (el.shadowRoot) roots.push(el.shadowRoot);
      else if (enterFrames && el.localName === 'iframe') {
        let d = null;
        try {
          d = el.contentDocument;
        } catch {
          d = null;
        }
        if (d && d.documentElement) roots.push(d);
      }
    }
    count += all.length;
  }
  return { ms: performance.now() - t0, elements: count, sink };
}

const originOf = (url) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

// The frames whose floor runs in themselves: the main frame, and every frame
// its nearest evaluating ancestor cannot read (another origin).
export function floorRoots(page) {
  const rootOf = new Map();
  const roots = [];
  const visit = (frame) => {
    const parent = frame.parentFrame();
    const parentRoot = parent ? rootOf.get(parent) : null;
    const root = !parentRoot || originOf(frame.url()) !== originOf(parentRoot.url()) ? frame : parentRoot;
    rootOf.set(frame, root);
    if (root === frame) roots.push(frame);
    for (const child of frame.childFrames()) visit(child);
  };
  visit(page.mainFrame());
  return roots;
}

