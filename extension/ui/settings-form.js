// @ts-check
// The settings form, one for both places people reach it: the side panel's
// Settings (extension/sidepanel/) and the options page
// (extension/options/). Server address and API key with a connection
// test, default mode, trusted origins (extension/content/trust.js); every
// field validated before anything is saved, each problem said next to its
// field.
//
// The page holds an empty <form>; attach() fills it with the fields (FIELDS,
// written once here for both pages) and connects them to the stored
// settings.
'use strict';

globalThis.SentienceSettingsForm = (() => {
  const { MSG, STORAGE, DEFAULT_SETTINGS, RUN_MODES } = SentienceProtocol;

  // The fields, each problem's place next to its field (`${id}-error`),
  // and the outcome (role=status). Static markup: nothing from the user or
  // a page goes into it.
  const FIELDS = `
    <label for="serverUrl">Agent server address</label>
    <input id="serverUrl" name="serverUrl" type="url" placeholder="http://localhost:3131" autocomplete="off" spellcheck="false" aria-describedby="serverUrl-error serverUrl-hint">
    <p id="serverUrl-error" class="field-error" hidden></p>
    <p id="serverUrl-hint" class="hint">Where <code>sentience serve</code> listens (http://localhost:3131 by default).</p>
    <label for="apiKey">API key (if the server requires one)</label>
    <input id="apiKey" name="apiKey" type="password" autocomplete="off">
    <label for="defaultMode">Default mode</label>
    <select id="defaultMode" name="defaultMode"><option value="autonomous">Autonomous: acts without asking</option><option value="careful">Careful: asks before risky steps</option></select>
    <label for="trustedOrigins">Trusted origins (one per line)</label>
    <textarea id="trustedOrigins" name="trustedOrigins" rows="3" placeholder="http://localhost:3000" spellcheck="false" aria-describedby="trustedOrigins-error trustedOrigins-hint"></textarea>
    <p id="trustedOrigins-error" class="field-error" hidden></p>
    <p id="trustedOrigins-hint" class="hint">Scripts of these sites get the full view of <code>window.sentience</code>: frames of other origins and screenshots. Only list sites you automate yourself; every other site gets what the browser already lets it see.</p>
    <div class="row"><button type="submit" class="primary">Save</button><button type="button" name="test" id="test">Test connection</button></div>
    <p id="settings-status" class="form-status" role="status"></p>`;

  /**
   * The server address as typed, checked: http(s), a host, no credentials
   * (the key has its own field). Returns the address without trailing
   * slashes, or the problem in words.
   * @param {string} raw
   * @returns {{url: string} | {error: string}}
   */
  function checkServerUrl(raw) {
    const text = raw.trim().replace(/\/+$/, '');
    if (!text) return { error: 'Enter the agent server’s address, e.g. http://localhost:3131.' };
    let url;
    try {
      url = new URL(text);
    } catch (e) {
      return { error: `“${text}” is not a web address: write it like http://localhost:3131.` };
    }
    if (!/^https?:$/.test(url.protocol)) return { error: 'The server address must start with http:// or https://.' };
    if (!url.hostname) return { error: 'The server address needs a host name, e.g. http://localhost:3131.' };
    if (url.username || url.password) return { error: 'Leave the user name and password out of the address: put the key in “API key”.' };
    if (url.search || url.hash) return { error: 'The server address cannot have a query (?) or fragment (#).' };
    return { url: text };
  }

  /**
   * Trusted origins, one per line: each must be an http(s) origin.
   * @param {string} raw
   * @returns {{origins: string[]} | {error: string}}
   */
  function checkOrigins(raw) {
    /** @type {string[]} */
    const origins = [];
    for (const line of raw.split('\n')) {
      const text = line.trim();
      if (!text) continue;
      let origin;
      try {
        origin = new URL(text).origin;
      } catch (e) {
        origin = 'null';
      }
      if (origin === 'null' || !/^https?:/.test(origin)) return { error: `Not an http(s) origin: ${text} (write it like https://example.com).` };
      if (!origins.includes(origin)) origins.push(origin);
    }
    return { origins };
  }

  /**
   * Puts `text` in `el`, a `command` in backticks (the status's hints, which
   * `sentience run` prints as they are) shown as code, not as backticks.
   * @param {HTMLElement} el
   * @param {string} text
   */
  function showText(el, text) {
    el.replaceChildren(
      ...text.split(/(`[^`]+`)/).map((part) => {
        if (!/^`[^`]+`$/.test(part)) return part;
        const code = document.createElement('code');
        code.textContent = part.slice(1, -1);
        return code;
      }),
    );
  }

  /**
   * The words for a server status (SentienceServerStatus).
   * @param {SentienceServerStatus} st
   */
  function describeStatus(st) {
    if (!st.ok) return `Cannot use the server: ${st.error}. ${st.hint}`;
    const h = st.health;
    const who = h.policy === 'llm' || (h.model && h.model !== 'embedded') ? `LLM ${h.model}` : 'built-in planner';
    return `Connected: ${h.status}, ${who}${h.version ? `, server ${h.version}` : ''} (${st.url}).`;
  }

  /**
   * Fills an empty form with the settings' fields and connects it to the
   * stored settings.
   * @param {HTMLFormElement} form
   * @param {{onSaved?: () => void}} [hooks]
   */
  function attach(form, hooks = {}) {
    form.innerHTML = FIELDS;
    /** @param {string} name */
    const field = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
    const status = /** @type {HTMLElement} */ (form.querySelector('[role=status]'));
    /**
     * @param {string} text
     * @param {'ok' | 'bad' | ''} kind
     */
    const say = (text, kind) => {
      showText(status, text);
      status.className = `form-status ${kind}`;
    };
    /**
     * @param {string} name
     * @param {string | null} problem
     */
    const mark = (name, problem) => {
      const el = field(name);
      const note = document.getElementById(`${el.id}-error`);
      if (problem) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
      if (note) {
        note.textContent = problem || '';
        note.hidden = !problem;
      }
    };

    /** @returns {{settings: SentienceSettings, trusted: string[]} | null} */
    function read() {
      const server = checkServerUrl(field('serverUrl').value);
      const origins = checkOrigins(field('trustedOrigins').value);
      mark('serverUrl', 'error' in server ? server.error : null);
      mark('trustedOrigins', 'error' in origins ? origins.error : null);
      if ('error' in server) {
        say(server.error, 'bad');
        field('serverUrl').focus();
        return null;
      }
      if ('error' in origins) {
        say(origins.error, 'bad');
        field('trustedOrigins').focus();
        return null;
      }
      const mode = RUN_MODES.includes(field('defaultMode').value) ? field('defaultMode').value : DEFAULT_SETTINGS.defaultMode;
      return { settings: { serverUrl: server.url, apiKey: field('apiKey').value.trim(), defaultMode: mode }, trusted: origins.origins };
    }

    async function load() {
      const got = await chrome.storage.local.get([STORAGE.SETTINGS, STORAGE.TRUSTED_ORIGINS]);
      const s = { ...DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (got[STORAGE.SETTINGS] || {}) };
      const trusted = got[STORAGE.TRUSTED_ORIGINS];
      field('serverUrl').value = s.serverUrl;
      field('apiKey').value = s.apiKey;
      field('defaultMode').value = s.defaultMode;
      field('trustedOrigins').value = Array.isArray(trusted) ? trusted.join('\n') : '';
      form.dataset.loaded = 'true';
    }

    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const got = read();
      if (!got) return;
      await chrome.storage.local.set({ [STORAGE.SETTINGS]: got.settings, [STORAGE.TRUSTED_ORIGINS]: got.trusted });
      // The fields show what was saved: a page's address is kept as its
      // origin, and a trust list must not read wider or narrower than it is.
      field('serverUrl').value = got.settings.serverUrl;
      field('apiKey').value = got.settings.apiKey;
      field('trustedOrigins').value = got.trusted.join('\n');
      say('Saved.', 'ok');
      if (hooks.onSaved) hooks.onSaved();
    });

    const test = /** @type {HTMLButtonElement} */ (form.elements.namedItem('test'));
    test.addEventListener('click', async () => {
      const got = read();
      if (!got) return;
      say('Testing…', '');
      test.disabled = true;
      try {
        /** @type {SentienceServerStatus | {error: string}} */
        const res = await chrome.runtime.sendMessage({ type: MSG.TEST_CONNECTION, serverUrl: got.settings.serverUrl, apiKey: got.settings.apiKey });
        if (res && 'ok' in res) say(describeStatus(res), res.ok ? 'ok' : 'bad');
        else say(`Cannot use the server: ${res ? res.error : 'the extension did not answer'}`, 'bad');
      } finally {
        test.disabled = false;
      }
    });

    // Fields edited elsewhere (the onboarding's address, another window).
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area === 'local' && (changes[STORAGE.SETTINGS] || changes[STORAGE.TRUSTED_ORIGINS]) && !form.contains(document.activeElement)) load();
    });
    return load();
  }

  return { attach, checkServerUrl, checkOrigins, describeStatus, showText };
})();
