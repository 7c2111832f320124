// Helpers for the agent-run suites: the real `sentience serve` binary on
// port 0, a scripted OpenAI-compatible chat-completions server (the only
// fake: it stands in for the remote LLM), and driving runs through the
// extension's own pages (the side panel, opened as a tab).
import { spawn } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, EXTENSION_ID } from './harness.mjs';

export const SENTIENCE = process.env.SENTIENCE_BIN || path.join(ROOT, 'target/release/sentience');

/** Starts `sentience serve --port 0` (or `port`); resolves with its URL once it listens. */
export function startAgentServer({ env = {}, dataDir, args = [], port = 0 } = {}) {
  if (!fs.existsSync(SENTIENCE)) throw new Error(`${SENTIENCE} is missing: run pkg-scripts/build.sh first`);
  const dir = dataDir || fs.mkdtempSync(path.join(os.tmpdir(), 'sentience-data-'));
  const clean = { ...process.env };
  for (const k of ['LLM_API_KEY', 'LLM_BASE_URL', 'LLM_MODEL', 'PORT', 'SENTIENCE_API_KEY']) delete clean[k];
  const proc = spawn(SENTIENCE, ['serve', '--port', String(port), '--data-dir', dir, ...args], { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sentience serve did not start: ${stderr}`)), 20000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) {
        clearTimeout(timer);
        resolve({
          url: m[1].replace(/\/$/, ''),
          dataDir: dir,
          proc,
          stderr: () => stderr,
          kill: () => new Promise((r) => (proc.exitCode !== null ? r() : (proc.once('exit', r), proc.kill('SIGKILL')))),
        });
      }
    });
    proc.once('exit', (code) => reject(new Error(`sentience serve exited (${code}): ${stderr}`)));
  });
}

/**
 * A scripted OpenAI-compatible endpoint. `respond(requestBody, callIndex)`
 * returns {tool, parameters} (answered as a tool call), {status, body} for a
 * raw HTTP answer, or {delayMs, ...} to answer late.
 */
export function startLlmServer(respond) {
  const calls = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      const json = body ? JSON.parse(body) : {};
      const index = calls.length;
      calls.push(json);
      const answer = await respond(json, index);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      if (answer.status) {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body || {}));
        return;
      }
      const message = {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `call_${index}`, type: 'function', function: { name: answer.tool, arguments: JSON.stringify(answer.parameters || {}) } }],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id: `chatcmpl-${index}`, object: 'chat.completion', model: 'scripted', choices: [{ index: 0, message, finish_reason: 'tool_calls' }] }),
      );
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}/v1`, calls, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** The text of the last user message the policy sent to the LLM. */
export function promptOf(body) {
  const msgs = body.messages || [];
  return msgs.filter((m) => m.role === 'user').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).pop() || '';
}

/** The history section of a policy prompt (what the run already did). */
export function historyOf(prompt) {
  const start = prompt.indexOf('History (most recent last):');
  const end = prompt.indexOf('<page', start);
  return start < 0 ? '' : prompt.slice(start, end < 0 ? undefined : end);
}

/**
 * The id of the element listed with `text` in the prompt's element listing
 * (the shared LLM format: `42 button "Pay now" primary @540,312`, or
 * `agent-3 button "Pay now"` for run API string ids (docs/contracts/run-api.md §12)).
 */
export function idOf(prompt, text) {
  const line = prompt.split('\n').find((l) => /^\S+ [a-z]+ "/.test(l) && l.includes(` "${text}`));
  const m = line && line.match(/^(\S+) /);
  return m ? (/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]) : null;
}

/** The side panel's page, opened as a tab that drives tab `tabId` (as the panel drives the tab beside it). */
export const panelUrl = (tabId) => `chrome-extension://${EXTENSION_ID}/extension/sidepanel/sidepanel.html${tabId === undefined ? '' : `?tab=${tabId}`}`;

/** A TCP port nothing listens on (yet): taken from the system, then let go. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = http.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The tab id Chrome gave `page` (looked up from the service worker). */
export function tabIdOf(worker, page) {
  return worker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
}

/**
 * Points the extension at `serverUrl` (from an extension page), as someone
 * who has used it before: the side panel's onboarding is over.
 */
export function configure(extPage, serverUrl, extra = {}) {
  return extPage.evaluate(
    (s) => chrome.storage.local.set({ settings: s, server_seen: { at: Date.now(), url: s.serverUrl, version: '' } }),
    { serverUrl, apiKey: '', defaultMode: 'autonomous', ...extra },
  );
}

/** Reads every run record the service worker keeps. */
export async function runs(extPage) {
  const all = await extPage.evaluate(() => chrome.storage.local.get(null));
  return Object.keys(all).filter((k) => k.startsWith('run:')).map((k) => all[k]);
}

/** Waits until run `runId` (or the only run) satisfies `pred`. */
export async function waitRun(extPage, pred, { timeoutMs = 60000, runId } = {}) {
  const until = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < until) {
    const list = await runs(extPage);
    last = runId ? list.find((r) => r.runId === runId) : list[0];
    if (last && pred(last)) return last;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`run did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(last && { status: last.status, phase: last.phase, error: last.error, log: last.log.slice(-5) })}`);
}

/** Starts a run from an extension page, as the side panel does. */
export async function startRun(extPage, { task, mode = 'autonomous', tabId, url }) {
  const res = await extPage.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-start', task, mode, tabId, ...(url ? { url } : {}) });
  if (res.error) throw new Error(res.error);
  return res.runId;
}

export const answer = (extPage, runId, approved, text) =>
  extPage.evaluate((m) => chrome.runtime.sendMessage(m), { type: 'run-answer', runId, approved, ...(text ? { answer: text } : {}) });
