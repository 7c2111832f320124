// The extension's protocol module (extension/protocol.js), in Node: its UI
// message checks, the generated MAIN-world part, and that no other
// extension file spells a protocol name itself instead of naming it (a
// hand copy would silently drift when the name changes here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, GENERATED, GENERATED_START, loadProtocol, facadeProtocolSource, startProtocolSource } from '../lib/facade-protocol.mjs';

const P = loadProtocol();

test('extension/content/facade-protocol.js and start-protocol.js are generated from protocol.js (run node tests/lib/facade-protocol.mjs --write)', () => {
  assert.equal(fs.readFileSync(GENERATED, 'utf8'), facadeProtocolSource(P));
  assert.equal(fs.readFileSync(GENERATED_START, 'utf8'), startProtocolSource(P), 'extension/content/start-protocol.js');
});

test('the operation lists are derived from OPS', () => {
  const ops = Object.keys(P.OPS);
  for (const list of [P.FACADE_OPS, P.STATUS_OPS, P.ROUTED_OPS]) for (const op of list) assert.ok(ops.includes(op), op);
  assert.deepEqual([...P.FACADE_OPS], ops.filter((op) => P.OPS[op].facade));
  // snapshot answers {status}; actions {success}.
  assert.ok(P.STATUS_OPS.includes('snapshot'));
  assert.ok(!P.STATUS_OPS.includes('click'));
  // What page scripts may not ask for.
  for (const op of ['ping', 'page_info', 'highlight', 'frame_walk']) assert.ok(!P.FACADE_OPS.includes(op), op);
  assert.ok(Object.isFrozen(P) && Object.isFrozen(P.OPS) && Object.isFrozen(P.MSG) && Object.isFrozen(P.STATUS_OPS));
});

test('UI messages: well-formed ones pass', () => {
  const ok = [
    { type: P.MSG.RUN_START, task: 'Buy milk', mode: 'careful', tabId: 3 },
    { type: P.MSG.RUN_START, task: 'x', mode: 'autonomous', tabId: 0, url: 'https://example.com/' },
    { type: P.MSG.RUN_START, task: 'x'.repeat(P.TASK_MAX_LENGTH), mode: 'careful', tabId: 1 },
    { type: P.MSG.RUN_CANCEL, runId: 'r1' },
    { type: P.MSG.RUN_ANSWER, runId: 'r1', approved: false },
    { type: P.MSG.RUN_ANSWER, runId: 'r1', approved: true, answer: 'yes' },
    { type: P.MSG.RUN_PAUSE, runId: 'r1' },
    { type: P.MSG.RUN_RESUME, runId: 'r1' },
    { type: P.MSG.RUNS_CLEAR },
    { type: P.MSG.TEST_CONNECTION, serverUrl: 'http://localhost:3131' },
    { type: P.MSG.TEST_CONNECTION, serverUrl: 'http://localhost:3131', apiKey: 'k' },
    { type: P.MSG.MCP_PAIR, code: '8777-abcdefghjkmnpqrstuvw' },
    { type: P.MSG.MCP_PAIR, code: ' 65535-23456789abcdefghjkmn ' },
    { type: P.MSG.MCP_UNPAIR },
    { type: P.MSG.MCP_SHARE, tabId: 7, shared: true },
    { type: P.MSG.MCP_STATUS },
  ];
  for (const msg of ok) assert.equal(P.validateUiMessage(msg), null, JSON.stringify(msg));
  assert.deepEqual(
    [...P.UI_MESSAGES].sort(),
    [P.MSG.RUN_START, P.MSG.RUN_CANCEL, P.MSG.RUN_ANSWER, P.MSG.RUN_PAUSE, P.MSG.RUN_RESUME, P.MSG.RUNS_CLEAR, P.MSG.TEST_CONNECTION, P.MSG.MCP_PAIR, P.MSG.MCP_UNPAIR, P.MSG.MCP_SHARE, P.MSG.MCP_STATUS].sort(),
  );
});

test('UI messages: malformed ones are refused with the reason', () => {
  const bad = [
    [null, 'message must be an object with a type'],
    ['run-start', 'message must be an object with a type'],
    [{ task: 'x' }, 'message must be an object with a type'],
    [{ type: 'nope' }, 'unknown message type nope'],
    [{ type: 'constructor' }, 'unknown message type constructor'],
    [{ type: P.MSG.RUN_START, task: '  ', mode: 'careful', tabId: 1 }, 'run-start: task must be a non-empty string'],
    [{ type: P.MSG.RUN_START, task: 'x'.repeat(P.TASK_MAX_LENGTH + 1), mode: 'careful', tabId: 1 }, 'run-start: task is too long (10,000 characters at most)'],
    [{ type: P.MSG.RUN_START, task: 'x', mode: 'reckless', tabId: 1 }, 'run-start: mode must be one of autonomous, careful'],
    [{ type: P.MSG.RUN_START, task: 'x', mode: 'careful', tabId: '1' }, 'run-start: tabId must be an integer'],
    [{ type: P.MSG.RUN_START, task: 'x', mode: 'careful', tabId: 1, url: 'file:///etc/passwd' }, 'run-start: url must be http(s)'],
    [{ type: P.MSG.RUN_CANCEL, runId: 7 }, 'run-cancel: runId must be a string'],
    [{ type: P.MSG.RUN_ANSWER, runId: 'r', approved: 'yes' }, 'run-answer: approved must be a boolean'],
    [{ type: P.MSG.RUN_ANSWER, runId: 'r', approved: true, answer: 3 }, 'run-answer: answer must be a string'],
    [{ type: P.MSG.TEST_CONNECTION }, 'test-connection: serverUrl must be a string'],
    [{ type: P.MSG.TEST_CONNECTION, serverUrl: 'http://x', apiKey: 1 }, 'test-connection: apiKey must be a string'],
    [{ type: P.MSG.RUN_PAUSE }, 'run-pause: runId must be a string'],
    [{ type: P.MSG.RUN_RESUME, runId: 3 }, 'run-resume: runId must be a string'],
    [{ type: P.MSG.MCP_PAIR, code: 'abc' }, 'mcp-pair: the pairing code looks like 8777-abcdefghjkmnpqrstuvw (as `sentience mcp --browser extension` prints it)'],
    [{ type: P.MSG.MCP_PAIR, code: '99999-abcdefghjkmnpqrstuvw' }, 'mcp-pair: the pairing code looks like 8777-abcdefghjkmnpqrstuvw (as `sentience mcp --browser extension` prints it)'],
    [{ type: P.MSG.MCP_PAIR, code: '8777-ABCDEFGHJKMNPQRSTUVW' }, 'mcp-pair: the pairing code looks like 8777-abcdefghjkmnpqrstuvw (as `sentience mcp --browser extension` prints it)'],
    [{ type: P.MSG.MCP_SHARE, tabId: '7', shared: true }, 'mcp-share: tabId must be an integer'],
    [{ type: P.MSG.MCP_SHARE, tabId: 7 }, 'mcp-share: shared must be a boolean'],
  ];
  for (const [msg, error] of bad) assert.equal(P.validateUiMessage(msg), error, JSON.stringify(msg));
});

// ----------------------------------------------------- no hand copies
// Every .js file of extension/ but protocol.js and the files generated from it.
function extensionFiles(dir = path.join(ROOT, 'extension')) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...extensionFiles(full));
    else if (entry.name.endsWith('.js')) out.push(full);
  }
  return out.filter((f) => f !== path.join(ROOT, 'extension/protocol.js') && f !== GENERATED && f !== GENERATED_START);
}

// How a hand copy of a protocol name would read: names distinctive enough
// to find as string literals, prefixes at the start of a template string,
// plain words as a message's `type:`, and the nonce pattern's source.
function protocolSpellings() {
  const all = [...Object.values(P.MSG), P.COMPUTE_PORT, P.FACADE_TAG, P.FRAMES.TAG, P.RUNS_ALARM, P.STORAGE.TRUSTED_ORIGINS, P.STORAGE.SERVER_SEEN, P.CONTENT_RUNTIME, P.PRELOAD_SCRIPT_ID];
  const distinctive = all.filter((n) => /[-/?_]/.test(n));
  const words = [...all.filter((n) => !distinctive.includes(n)), ...Object.values(P.PORT_MSG)];
  return [
    ...distinctive.flatMap((n) => [`'${n}'`, `"${n}"`]),
    ...[P.STORAGE.RUN_PREFIX, P.ASK_NOTIFICATION_PREFIX].flatMap((n) => [`'${n}'`, `"${n}"`, `\`${n}`]),
    ...words.flatMap((w) => [`type: '${w}'`, `type === '${w}'`]),
    P.NONCE_RE.source,
  ];
}

// Files that still spell protocol names themselves, each with the reason.
// An entry that no longer applies is reported (not failed) so it can go.
/** @type {Record<string, string>} */
const PENDING = {};

test('no extension file spells a protocol name itself: it names SentienceProtocol.*', (t) => {
  const spellings = protocolSpellings();
  const offenders = [];
  for (const file of extensionFiles()) {
    const rel = path.relative(ROOT, file);
    const text = fs.readFileSync(file, 'utf8');
    const found = spellings.filter((s) => text.includes(s));
    if (PENDING[rel]) {
      if (!found.length) t.diagnostic(`${rel} no longer spells protocol names: drop it from PENDING`);
      continue;
    }
    if (found.length) offenders.push(`${rel}: ${found.join(', ')}`);
  }
  assert.deepEqual(offenders, []);
});

test('the check above finds a hand copy', () => {
  const spellings = protocolSpellings();
  const sample = "chrome.tabs.sendMessage(id, { type: 'sentience-call', op });";
  assert.ok(spellings.some((s) => sample.includes(s)));
});
