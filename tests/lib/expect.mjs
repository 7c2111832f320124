// Checks a snapshot against a fixture's expectations (tests/pages/*.expected.json).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { ROOT } from './harness.mjs';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(ROOT, 'snapshot.schema.json'), 'utf8')));

/** Fails with every schema violation listed. */
export function assertSchema(snap) {
  if (!validate(snap)) {
    assert.fail(`snapshot violates snapshot.schema.json:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
}

/** Partial deep match: every key in `want` equals the value in `got`. */
export function matches(got, want) {
  if (want === null || typeof want !== 'object') return got === want;
  if (got === null || typeof got !== 'object') return false;
  return Object.keys(want).every((k) => matches(got[k], want[k]));
}

const describe = (e) => `${e.role} ${JSON.stringify(e.text)} imp=${e.importance} vp=${e.in_viewport} occ=${e.is_occluded} z=${e.z_index} ${JSON.stringify(e.visual_cues)}`;

export function checkExpectations(snap, spec) {
  assert.equal(snap.status, 'success', `snapshot failed: ${snap.error}`);
  assertSchema(snap);
  const listing = () => snap.elements.map(describe).join('\n  ');
  for (const want of spec.expect || []) {
    assert.ok(snap.elements.some((e) => matches(e, want)), `expected element ${JSON.stringify(want)} not found in:\n  ${listing()}`);
  }
  for (const banned of spec.absent || []) {
    const hit = snap.elements.find((e) => matches(e, banned) || (banned.text && JSON.stringify(e).includes(banned.text) && !banned.role));
    assert.ok(!hit, `element ${JSON.stringify(banned)} must be absent, found ${hit && describe(hit)}`);
  }
  if (spec.first) assert.ok(matches(snap.elements[0], spec.first), `first element should match ${JSON.stringify(spec.first)}:\n  ${listing()}`);
  if (spec.count !== undefined) assert.equal(snap.elements.length, spec.count, `element count:\n  ${listing()}`);
  if (spec.order) {
    const pos = spec.order.map((t) => snap.elements.findIndex((e) => e.text === t));
    assert.ok(pos.every((p, i) => p >= 0 && (i === 0 || p > pos[i - 1])), `order ${JSON.stringify(spec.order)} not respected:\n  ${listing()}`);
  }
  if (spec.engine_path) assert.equal(snap.meta.engine_path, spec.engine_path);
  // snapshot sort order (docs/contracts/snapshot.md §7): importance descending,
  // then bbox.y ascending.
  for (let i = 1; i < snap.elements.length; i++) {
    const a = snap.elements[i - 1];
    const b = snap.elements[i];
    assert.ok(a.importance > b.importance || (a.importance === b.importance && a.bbox.y <= b.bbox.y), `sort order broken at ${i}`);
  }
}
