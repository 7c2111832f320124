// The one message type of the UI ↔ service-worker boundary: every message
// the popup, side panel, options page or the `sentience run` CLI (through an
// extension page) sends to the service worker, validated on arrival.
// Loaded by the service worker (importScripts) and by extension pages.
'use strict';

globalThis.SentienceMessages = (() => {
  const MODES = ['autonomous', 'careful'];

  /** Returns an error string, or null when `msg` is a well-formed UI message. */
  function validate(msg) {
    if (!msg || typeof msg !== 'object' || typeof msg.type !== 'string') return 'message must be an object with a type';
    switch (msg.type) {
      case 'run-start':
        if (typeof msg.task !== 'string' || !msg.task.trim()) return 'run-start: task must be a non-empty string';
        if (msg.task.length > 10000) return 'run-start: task is too long (10,000 characters at most)';
        if (!MODES.includes(msg.mode)) return `run-start: mode must be one of ${MODES.join(', ')}`;
        if (!Number.isInteger(msg.tabId)) return 'run-start: tabId must be an integer';
        if (msg.url !== undefined && !/^https?:\/\//.test(String(msg.url))) return 'run-start: url must be http(s)';
        return null;
      case 'run-cancel':
        return typeof msg.runId === 'string' ? null : 'run-cancel: runId must be a string';
      case 'run-answer':
        if (typeof msg.runId !== 'string') return 'run-answer: runId must be a string';
        if (typeof msg.approved !== 'boolean') return 'run-answer: approved must be a boolean';
        if (msg.answer !== undefined && typeof msg.answer !== 'string') return 'run-answer: answer must be a string';
        return null;
      case 'test-connection':
        return typeof msg.serverUrl === 'string' ? null : 'test-connection: serverUrl must be a string';
      case 'runs-clear':
        return null;
      default:
        return `unknown message type ${msg.type}`;
    }
  }

  const DEFAULT_SETTINGS = { serverUrl: 'http://localhost:3131', apiKey: '', defaultMode: 'autonomous' };

  return { validate, MODES, DEFAULT_SETTINGS };
})();
