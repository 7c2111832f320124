// extension/content/facade-protocol.js is generated from extension/protocol.js:
// the part of the protocol the page's MAIN world needs (main-world.js).
// Chrome injects a script file at most once per frame, whatever the world,
// so the MAIN world cannot load protocol.js as well as the isolated world.
//   node tests/lib/facade-protocol.mjs          exits 1 when the file is stale
//   node tests/lib/facade-protocol.mjs --write  regenerates it
// tests/unit/protocol.test.mjs fails when it is stale.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const GENERATED = path.join(ROOT, 'extension/content/facade-protocol.js');

/** extension/protocol.js evaluated as the browser does (a classic script): its SentienceProtocol. */
export function loadProtocol() {
  const context = vm.createContext({});
  vm.runInContext(fs.readFileSync(path.join(ROOT, 'extension/protocol.js'), 'utf8'), context, { filename: 'extension/protocol.js' });
  return context.SentienceProtocol;
}

/** The text extension/content/facade-protocol.js must have. */
export function facadeProtocolSource(protocol = loadProtocol()) {
  const values = {
    FACADE_TAG: protocol.FACADE_TAG,
    FACADE_CALL_TIMEOUT_MS: protocol.FACADE_CALL_TIMEOUT_MS,
    STATUS_OPS: Array.from(protocol.STATUS_OPS),
  };
  const body = Object.entries(values)
    .map(([k, v]) => `  ${k}: ${Array.isArray(v) ? `Object.freeze(${JSON.stringify(v)})` : JSON.stringify(v)},`)
    .join('\n');
  return `// @ts-check
// GENERATED from extension/protocol.js by \`node tests/lib/facade-protocol.mjs --write\`: do not edit.
// The part of the protocol the page's MAIN world needs: content/main-world.js
// takes this object and deletes the global before any page script runs.
// (Chrome injects a script file once per frame, whatever the world, so the
// MAIN world cannot load protocol.js too.)
'use strict';

globalThis.SentienceFacadeProtocol = Object.freeze({
${body}
});
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const want = facadeProtocolSource();
  if (process.argv.includes('--write')) {
    fs.writeFileSync(GENERATED, want);
    console.log(`wrote ${path.relative(ROOT, GENERATED)}`);
  } else if (!fs.existsSync(GENERATED) || fs.readFileSync(GENERATED, 'utf8') !== want) {
    console.error(`${path.relative(ROOT, GENERATED)} is stale: run node tests/lib/facade-protocol.mjs --write`);
    process.exit(1);
  }
}
