// @ts-check
// Options page: server URL, API key, default mode, trusted origins
// (extension/content/trust.js); validated, with a "test connection" that
// calls the server's /health.
'use strict';

const { MSG, STORAGE, DEFAULT_SETTINGS } = SentienceProtocol;
/** @param {string} id */
const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/**
 * @param {string} text
 * @param {boolean} ok
 */
const showStatus = (text, ok) => {
  $('status').textContent = text;
  $('status').className = ok ? 'ok' : 'bad';
};

/** @returns {{settings?: SentienceSettings, trusted?: string[], error?: string}} */
function read() {
  const serverUrl = $('serverUrl').value.trim().replace(/\/+$/, '');
  let url;
  try {
    url = new URL(serverUrl);
  } catch (e) {
    return { error: 'The server URL is not a valid URL.' };
  }
  if (!/^https?:$/.test(url.protocol)) return { error: 'The server URL must start with http:// or https://.' };
  /** @type {string[]} */
  const trusted = [];
  for (const line of $('trustedOrigins').value.split('\n')) {
    if (!line.trim()) continue;
    let origin;
    try {
      origin = new URL(line.trim()).origin;
    } catch (e) {
      origin = 'null';
    }
    if (origin === 'null' || !/^https?:/.test(origin)) return { error: `Not an http(s) origin: ${line.trim()}` };
    if (!trusted.includes(origin)) trusted.push(origin);
  }
  return { settings: { serverUrl, apiKey: $('apiKey').value, defaultMode: $('defaultMode').value }, trusted };
}

chrome.storage.local.get([STORAGE.SETTINGS, STORAGE.TRUSTED_ORIGINS]).then(({ [STORAGE.SETTINGS]: settings, [STORAGE.TRUSTED_ORIGINS]: trusted }) => {
  $('trustedOrigins').value = Array.isArray(trusted) ? trusted.join('\n') : '';
  const s = { ...DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (settings || {}) };
  $('serverUrl').value = s.serverUrl;
  $('apiKey').value = s.apiKey;
  $('defaultMode').value = s.defaultMode;
});

$('form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const { settings, trusted, error } = read();
  if (error) return showStatus(error, false);
  await chrome.storage.local.set({ [STORAGE.SETTINGS]: settings, [STORAGE.TRUSTED_ORIGINS]: trusted });
  showStatus('Saved.', true);
});

$('test').addEventListener('click', async () => {
  const { settings, error } = read();
  if (error !== undefined || !settings) return showStatus(error || 'invalid settings', false);
  showStatus('Testing…', true);
  const res = await chrome.runtime.sendMessage({ type: MSG.TEST_CONNECTION, serverUrl: settings.serverUrl, apiKey: settings.apiKey });
  if (res && res.health) showStatus(`Connected: ${res.health.status}, model ${res.health.model} (${res.health.baseUrl})`, true);
  else showStatus(`Cannot reach the server: ${res ? res.error : 'no answer'}`, false);
});
