// The MCP link's names are spelled in two languages: extension/protocol.js
// `MCP` (the extension's side) and crates/mcp/src/backend/extension/wire.rs
// (the server's). Both are read here and must agree, so that neither can
// drift alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, loadProtocol } from '../lib/facade-protocol.mjs';

const P = loadProtocol();
const wire = fs.readFileSync(path.join(ROOT, 'crates/mcp/src/backend/extension/wire.rs'), 'utf8');
const pairing = fs.readFileSync(path.join(ROOT, 'crates/mcp/src/backend/extension/pairing.rs'), 'utf8');
const cli = fs.readFileSync(path.join(ROOT, 'crates/cli/src/mcp.rs'), 'utf8');

test('the methods the server may ask for are the ones the extension answers', () => {
  const rust = [...wire.matchAll(/Method::\w+ => "(\w+)"/g)].map((m) => m[1]);
  assert.deepEqual([...P.MCP.METHODS].sort(), rust.sort());
});

test('message types and close codes agree', () => {
  for (const t of Object.values(P.MCP.TYPES)) assert.match(wire, new RegExp(`"type":"${t}"`), `wire.rs documents ${t}`);
  assert.match(wire, new RegExp(`CLOSE_BAD_TOKEN: u16 = ${P.MCP.CLOSE_BAD_TOKEN};`));
  assert.match(wire, new RegExp(`CLOSE_REPLACED: u16 = ${P.MCP.CLOSE_REPLACED};`));
});

test('a pairing code as the server makes it is one the extension accepts', () => {
  const alphabet = /const ALPHABET: &\[u8\] = b"([a-z0-9]+)";/.exec(pairing)[1];
  const chars = Number(/const TOKEN_CHARS: usize = (\d+);/.exec(pairing)[1]);
  const port = Number(/default_value_t = (\d+)\)\]\s*extension_port/.exec(cli)[1]);
  assert.equal(port, P.MCP.DEFAULT_PORT);
  const token = Array.from({ length: chars }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
  assert.match(`${port}-${token}`, P.MCP.CODE_RE);
  assert.equal(P.validateUiMessage({ type: P.MSG.MCP_PAIR, code: `${port}-${token}` }), null);
  // Every character the server may draw, and none it may not.
  for (const c of alphabet) assert.match(`1-${c.repeat(chars)}`, P.MCP.CODE_RE, c);
  for (const c of '01ilo') assert.doesNotMatch(`1-${c.repeat(chars)}`, P.MCP.CODE_RE, c);
});
