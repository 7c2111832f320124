// Selector uniqueness in Chromium (docs/browse.md): for an HTML
// file, `sentience browse-candidates` lists every element the browse
// policies could choose with the selector the server would send for it and
// the element's index among all elements in document order (the server's
// parser, html5ever). Here Chromium loads the same bytes with scripts
// blocked (a `script-src 'none'` policy: the document is parsed with
// scripting on, as the server's parser does, but no page script changes
// it, and nothing else is fetched), and for each candidate checks that
// `document.querySelectorAll(selector)` is exactly one element, the one at
// that index of `document.querySelectorAll('*')`.
import { spawnSync } from 'node:child_process';
import { SENTIENCE } from './agent.mjs';

/** Runs `sentience browse-candidates` on files; resolves {file → candidates}. */
export function candidatesOf(files) {
  const r = spawnSync(SENTIENCE, ['browse-candidates', ...files], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`sentience browse-candidates failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout);
  return Object.fromEntries(out.map((p) => [p.file, p]));
}

/**
 * Loads `html` into `page` as the document at `url` (scripts blocked, no
 * other request answered) and checks every candidate. Returns
 * {checked, unique, failures: [{selector, domIndex, tag, matches, reason}]}.
 */
export async function checkInChromium(page, html, candidates, url = 'http://browse-selectors.test/page.html') {
  await page.unroute('**/*').catch(() => {});
  await page.route('**/*', (route) => {
    if (route.request().url() === url) {
      return route.fulfill({ status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "script-src 'none'" } });
    }
    return route.abort();
  });
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  return page.evaluate((cands) => {
    const all = document.querySelectorAll('*');
    const failures = [];
    let unique = 0;
    for (const c of cands) {
      let matches;
      try {
        matches = document.querySelectorAll(c.selector);
      } catch (e) {
        failures.push({ ...c, matches: null, reason: `invalid in Chromium: ${e.message}` });
        continue;
      }
      const target = all[c.domIndex];
      if (matches.length === 1 && matches[0] === target) {
        unique++;
        continue;
      }
      const reason = matches.length === 0 ? 'matches nothing'
        : matches.length > 1 ? `matches ${matches.length} elements`
        : `matches <${matches[0].tagName.toLowerCase()}>, not the element at index ${c.domIndex} (<${target ? target.tagName.toLowerCase() : 'none'}>)`;
      failures.push({ selector: c.selector, domIndex: c.domIndex, tag: c.tag, text: c.text, matches: matches.length, reason });
    }
    return { checked: cands.length, unique, failures };
  }, candidates);
}
