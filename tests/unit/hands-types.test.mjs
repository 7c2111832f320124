// clients/hands/index.d.ts is written by hand (it says more than the
// generated pkg/sentience_hands.d.ts, whose values are `any`): tsc checks
// index.mjs against both (tests/tsconfig/hands.json), and this checks the
// rest: index.d.ts declares exactly what index.mjs exports, and its
// HandsConfig is the Rust config's fields (crates/hands, serialised by
// defaultConfig()), so a threshold added, renamed or removed on either side
// fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DTS = fs.readFileSync(path.join(ROOT, 'clients/hands/index.d.ts'), 'utf8');
const hands = await import('../../clients/hands/index.mjs');

/** The members declared in `interface NAME { … }` of index.d.ts. */
function members(name) {
  const body = new RegExp(`export interface ${name} \\{([^}]*)\\}`).exec(DTS);
  assert.ok(body, `index.d.ts declares interface ${name}`);
  return [...body[1].matchAll(/^\s*(?:readonly\s+)?(\w+)\??\s*[:(]/gm)].map((m) => m[1]).sort();
}

test('index.d.ts declares exactly the functions index.mjs exports', () => {
  const declared = [...DTS.matchAll(/^export function (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(hands).sort());
});

test("HandsConfig is the Rust config's fields (defaultConfig())", async () => {
  await hands.load();
  assert.deepEqual(members('HandsConfig'), Object.keys(hands.defaultConfig()).sort());
});

test('the checks above fail on a drifted declaration', () => {
  const drifted = DTS.replace('loopHistory?: number;', 'loopHistoryMax?: number;');
  const body = /export interface HandsConfig \{([^}]*)\}/.exec(drifted)[1];
  assert.ok(body.includes('loopHistoryMax') && !/\bloopHistory\?/.test(body));
});
