// MCP clients for the tests and the benchmark: the official TypeScript SDK's
// client (pinned in tests/package-lock.json) talking to `sentience mcp`
// (target/release/sentience) over stdio or streamable HTTP, or to any
// other MCP server command (Playwright MCP in tests/bench/mcp-bench.mjs).
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, CHROMIUM } from './harness.mjs';

export const SENTIENCE = process.env.SENTIENCE_BIN || path.join(ROOT, 'target/release/sentience');

/**
 * A client with its capabilities: `elicit(params)` answers elicitation
 * requests (the host asking its user); without it the client declares none.
 */
function makeClient({ elicit } = {}) {
  const client = new Client({ name: 'sentience-tests', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params));
  return client;
}

/**
 * Starts `command args` as an MCP server over stdio and connects.
 * Resolves to {client, stderr(), close()}.
 */
export async function stdioServer(command, args, { elicit, env, cwd = ROOT } = {}) {
  const transport = new StdioClientTransport({ command, args, stderr: 'pipe', cwd, env: { ...process.env, ...env } });
  let stderr = '';
  transport.stderr?.on('data', (d) => {
    stderr += d.toString();
  });
  const client = makeClient({ elicit });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** `sentience mcp ARGS` over stdio, with a managed browser on `profile` unless ARGS say otherwise. */
export function sentienceStdio(args, opts = {}) {
  return stdioServer(SENTIENCE, ['mcp', '--chromium', CHROMIUM, ...args], opts);
}

/**
 * `sentience mcp --http --port 0 ARGS` as a child process; resolves once it
 * listens, to {url, stop()}.
 */
export function sentienceHttp(args) {
  const child = spawn(SENTIENCE, ['mcp', '--http', '--port', '0', '--chromium', CHROMIUM, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sentience mcp --http did not start: ${err}`)), 20000);
    child.on('exit', (code) => reject(new Error(`sentience mcp --http exited with ${code}: ${err}`)));
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1],
          stderr: () => err,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGINT');
              setTimeout(() => child.kill('SIGKILL'), 15000).unref();
            }),
        });
      }
    });
  });
}

/** An MCP client over streamable HTTP to `url`. */
export async function httpClient(url, { token, elicit } = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {});
  const client = makeClient({ elicit });
  await client.connect(transport);
  return client;
}

/** The text of a tool result. */
export function text(result) {
  return (result.content || [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** Calls a tool; throws with its text when it failed (isError). */
export async function call(client, name, args = {}, options) {
  const r = await client.callTool({ name, arguments: args }, undefined, options);
  if (r.isError) throw new Error(`${name} failed: ${text(r)}`);
  return r;
}

/** Calls a tool that must fail; resolves to its text. */
export async function refused(client, name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`${name} should have failed: ${text(r)}`);
  return text(r);
}

/** The id of the first listing line whose role and text match. */
export function idOf(listing, role, textPattern) {
  for (const line of listing.split('\n')) {
    const m = /^[+~]? ?(\d+) (\w+) "((?:[^"\\]|\\.)*)"/.exec(line);
    if (m && m[2] === role && textPattern.test(m[3])) return Number(m[1]);
  }
  throw new Error(`no ${role} ${textPattern} in:\n${listing}`);
}
