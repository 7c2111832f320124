// @ts-check
// The first run: what the extension does, where the agent server comes
// from (`sentience serve`, copyable), its address with a connection test,
// and the default mode. Shown until an agent server has answered once
// (STORAGE.SERVER_SEEN, written by the service worker when a check
// succeeds); once it has, "Start using Sentience" leads to the task.
'use strict';

globalThis.SentienceOnboarding = (() => {
  const { STORAGE, DEFAULT_SETTINGS } = SentienceProtocol;
  const S = SentienceServerStatus;

  /** @param {string} id */
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

  /** Whether the onboarding is still due. */
  async function due() {
    const { [STORAGE.SERVER_SEEN]: seen } = await chrome.storage.local.get(STORAGE.SERVER_SEEN);
    return !seen;
  }

  async function settings() {
    const { [STORAGE.SETTINGS]: s } = await chrome.storage.local.get(STORAGE.SETTINGS);
    return { ...DEFAULT_SETTINGS, .../** @type {Partial<SentienceSettings>} */ (s || {}) };
  }

  /** @param {Partial<SentienceSettings>} patch */
  async function saveSettings(patch) {
    await chrome.storage.local.set({ [STORAGE.SETTINGS]: { ...(await settings()), ...patch } });
  }

  /**
   * @param {SentienceServerStatus} st
   * @param {boolean} [asked] the user pressed Test (else: the panel's own check)
   */
  function showStatus(st, asked = false) {
    const out = $('onboarding-result');
    SentienceSettingsForm.showText(out, st.ok || asked ? SentienceSettingsForm.describeStatus(st) : `Not connected yet: ${st.error}. The panel tries again every few seconds.`);
    out.className = `form-status ${st.ok ? 'ok' : 'bad'}`;
    $('onboarding-done').disabled = !st.ok;
    $('onboarding-done-why').hidden = st.ok;
  }

  /**
   * @param {{onDone: () => void}} hooks
   */
  async function init(hooks) {
    const s = await settings();
    $('onboarding-url').value = s.serverUrl;
    for (const radio of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name=onboarding-mode]'))) {
      radio.checked = radio.value === s.defaultMode;
      radio.addEventListener('change', () => {
        if (radio.checked) saveSettings({ defaultMode: radio.value });
      });
    }
    // Test: save the address (the status line and the runs use it), check.
    $('onboarding-connect').addEventListener('submit', async (e) => {
      e.preventDefault();
      const checked = SentienceSettingsForm.checkServerUrl($('onboarding-url').value);
      if ('error' in checked) {
        $('onboarding-url').setAttribute('aria-invalid', 'true');
        $('onboarding-result').textContent = checked.error;
        $('onboarding-result').className = 'form-status bad';
        return;
      }
      $('onboarding-url').removeAttribute('aria-invalid');
      $('onboarding-result').textContent = 'Testing…';
      $('onboarding-result').className = 'form-status';
      await saveSettings({ serverUrl: checked.url });
      showStatus(await S.check(), true);
    });
    S.subscribe((st) => {
      if (!document.getElementById('view-onboarding')?.hidden) showStatus(st);
    });
    const now = S.current();
    if (now) showStatus(now);
    $('onboarding-done').addEventListener('click', () => hooks.onDone());
  }

  return { due, init };
})();
