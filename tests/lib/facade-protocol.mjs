// Two files are generated from extension/protocol.js, the parts of the
// protocol that every document loads at document_start
// (docs/architecture.md "Loaded on first use"):
// - extension/content/facade-protocol.js: what the page's MAIN world needs
//   (main-world.js). Chrome injects a script file at most once per frame,
//   whatever the world, so the MAIN world cannot load protocol.js as well
//   as the isolated world.
// - extension/content/start-protocol.js: what the isolated world's bridge
//   and trust.js read before the document's first call. protocol.js itself
//   (every name, the UI checks) costs each page ~0.1-0.2 ms to evaluate
//   (docs/benchmarks.md "What being installed costs"), so it comes with
//   the content runtime, loaded on the first call, and replaces this part.
//   node tests/lib/facade-protocol.mjs          exits 1 when a file is stale
//   node tests/lib/facade-protocol.mjs --write  regenerates them
// tests/unit/protocol.test.mjs fails when one is stale.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GENERATED = path.join(ROOT, 'extension/content/facade-protocol.js');
export const GENERATED_START = path.join(ROOT, 'extension/content/start-protocol.js');

/** extension/protocol.js evaluated as the browser does (a classic script): its SentienceProtocol. */
export function loadProtocol() {
  const context = vm.createContext({});
  vm.runInContext(fs.readFileSync(path.join(ROOT, 'extension/protocol.js'), 'utf8'), context, { filename: 'extension/protocol.js' });
  return context.SentienceProtocol;
}

/** @param {unknown} v a string, number, RegExp, array of strings or flat object of those */
function literal(v) {
  if (v instanceof RegExp || Object.prototype.toString.call(v) === '[object RegExp]') return String(v);
  if (Array.isArray(v)) return `Object.freeze(${JSON.stringify(Array.from(v))})`;
  if (v && typeof v === 'object') return `Object.freeze({ ${Object.entries(v).map(([k, x]) => `${k}: ${literal(x)}`).join(', ')} })`;
  return JSON.stringify(v);
}

/** @param {string} global @param {Record<string, unknown>} values @param {string} why */
function source(global, values, why) {
  const body = Object.entries(values)
    .map(([k, v]) => `  ${k}: ${literal(v)},`)
    .join('\n');
  return `// @ts-check
// GENERATED from extension/protocol.js by \`node tests/lib/facade-protocol.mjs --write\`: do not edit.
${why}
'use strict';

globalThis.${global} = Object.freeze({
${body}
});
`;
}

/** The text extension/content/facade-protocol.js must have. */
export function facadeProtocolSource(protocol = loadProtocol()) {
  return source(
    'SentienceFacadeProtocol',
    { FACADE_TAG: protocol.FACADE_TAG, FACADE_CALL_TIMEOUT_MS: protocol.FACADE_CALL_TIMEOUT_MS, STATUS_OPS: protocol.STATUS_OPS },
    `// The part of the protocol the page's MAIN world needs: content/main-world.js
// takes this object and deletes the global before any page script runs.
// (Chrome injects a script file once per frame, whatever the world, so the
// MAIN world cannot load protocol.js too.)`,
  );
}

/** The text extension/content/start-protocol.js must have. */
export function startProtocolSource(protocol = loadProtocol()) {
  const { MSG, FRAMES, STORAGE } = protocol;
  return source(
    'SentienceProtocol',
    {
      FACADE_TAG: protocol.FACADE_TAG,
      MSG: { CALL: MSG.CALL, FRAME_CLAIM: MSG.FRAME_CLAIM, RUNTIME_LOAD: MSG.RUNTIME_LOAD },
      FRAMES: { TAG: FRAMES.TAG },
      NONCE_RE: protocol.NONCE_RE,
      STATUS_OPS: protocol.STATUS_OPS,
      FACADE_OPS: protocol.FACADE_OPS,
      STORAGE: { TRUSTED_ORIGINS: STORAGE.TRUSTED_ORIGINS, MANAGED_TRUSTED_ORIGINS: STORAGE.MANAGED_TRUSTED_ORIGINS },
    },
    `// The part of the protocol the isolated world reads at document_start
// (content/trust.js, content/bridge.js, which take what they need then). The
// content runtime, loaded on the document's first call, begins with
// protocol.js, which replaces this object with the whole protocol.`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const protocol = loadProtocol();
  let stale = false;
  for (const [file, want] of [
    [GENERATED, facadeProtocolSource(protocol)],
    [GENERATED_START, startProtocolSource(protocol)],
  ]) {
    if (process.argv.includes('--write')) {
      fs.writeFileSync(file, want);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    } else if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== want) {
      console.error(`${path.relative(ROOT, file)} is stale: run node tests/lib/facade-protocol.mjs --write`);
      stale = true;
    }
  }
  if (stale) process.exit(1);
}
