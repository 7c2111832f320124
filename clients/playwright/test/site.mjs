// The project's pages on 127.0.0.1 port 0 (demo store under /demo/, the
// fixture pages under /pages/, strict CSP for *.csp.html), and a page that
// embeds the demo's login page from the other loopback origin (localhost).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const STRICT_CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'";
const LATE = `<!doctype html><title>late</title><button id="stay">Stay</button><button id="go">Going</button>
<script>setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Arrived'; document.body.append(b); document.getElementById('go').remove(); }, 400);</script>`;

// A menu shown on hover only, and a button far below the fold.
const HOVER = `<!doctype html><title>hover</title><style>#menu{display:none} #wrap:hover #menu{display:block}</style>
<div id="wrap"><button id="open">Products</button><div id="menu"><a href="#garden">Garden tools</a></div></div>
<div style="height:2000px"></div><button id="far">Far away</button>`;

export function startSite() {
  let port = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const send = (body, headers = {}) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
    if (url.pathname === '/late.html') return send(LATE);
    if (url.pathname === '/hover.html') return send(HOVER);
    if (url.pathname === '/frame.html') {
      const other = (req.headers.host || '').startsWith('127.0.0.1') ? 'localhost' : '127.0.0.1';
      return send(`<!doctype html><title>frame</title><button>Outer button</button><iframe src="http://${other}:${port}/demo/login.html" width="600" height="400"></iframe>`);
    }
    for (const [prefix, dir] of [['/demo/', 'demo'], ['/pages/', 'tests/pages']]) {
      if (!url.pathname.startsWith(prefix)) continue;
      const file = path.join(ROOT, dir, path.normalize(url.pathname.slice(prefix.length)));
      if (!file.startsWith(path.join(ROOT, dir)) || !fs.existsSync(file)) break;
      const type = file.endsWith('.css') ? 'text/css' : 'text/html; charset=utf-8';
      return send(fs.readFileSync(file), { 'content-type': type, ...(file.endsWith('.csp.html') ? { 'content-security-policy': STRICT_CSP } : {}) });
    }
    res.writeHead(404).end('not found');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      port = server.address().port;
      resolve({ url: `http://127.0.0.1:${port}`, other: `http://localhost:${port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
