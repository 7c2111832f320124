// Options page: server URL, API key, default mode, trusted origins
// (extension/content/trust.js); validated, with a "test connection" that
// calls the server's /health.
'use strict';

const $ = (id) => document.getElementById(id);
const status = (text, ok) => {
  $('status').textContent = text;
  $('status').className = ok ? 'ok' : 'bad';
};

function read() {
  const serverUrl = $('serverUrl').value.trim().replace(/\/+$/, '');
  let url;
  try {
    url = new URL(serverUrl);
  } catch (e) {
    return { error: 'The server URL is not a valid URL.' };
  }
  if (!/^https?:$/.test(url.protocol)) return { error: 'The server URL must start with http:// or https://.' };
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

chrome.storage.local.get(['settings', 'trusted_origins']).then(({ settings, trusted_origins }) => {
  $('trustedOrigins').value = Array.isArray(trusted_origins) ? trusted_origins.join('\n') : '';
  const s = { ...SentienceMessages.DEFAULT_SETTINGS, ...(settings || {}) };
  $('serverUrl').value = s.serverUrl;
  $('apiKey').value = s.apiKey;
  $('defaultMode').value = s.defaultMode;
});

$('form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const { settings, trusted, error } = read();
  if (error) return status(error, false);
  await chrome.storage.local.set({ settings, trusted_origins: trusted });
  status('Saved.', true);
});

$('test').addEventListener('click', async () => {
  const { settings, error } = read();
  if (error) return status(error, false);
  status('Testing…', true);
  const res = await chrome.runtime.sendMessage({ type: 'test-connection', serverUrl: settings.serverUrl, apiKey: settings.apiKey });
  if (res && res.health) status(`Connected: ${res.health.status}, model ${res.health.model} (${res.health.baseUrl})`, true);
  else status(`Cannot reach the server: ${res ? res.error : 'no answer'}`, false);
});
