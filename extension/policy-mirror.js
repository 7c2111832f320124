// @ts-check
// Mirrors the administrator's `trusted_origins` (managed storage,
// extension/managed-schema.json) into storage.local, where content scripts
// read it without waiting. The first managed-storage read of a browser
// session waits for the policy service (1–2 s on Linux); content/trust.js
// uses this mirror only to answer "not trusted" early and still confirms
// every grant with the policy itself (docs/api.md, "Who may see and do
// what").
'use strict';

(() => {
  const { TRUSTED_ORIGINS, MANAGED_TRUSTED_ORIGINS } = SentienceProtocol.STORAGE;

  /** @param {unknown} list */
  function mirror(list) {
    return chrome.storage.local.set({ [MANAGED_TRUSTED_ORIGINS]: Array.isArray(list) ? list : [] }).catch(() => {});
  }

  if (!chrome.storage.managed) return;
  chrome.storage.managed.get(TRUSTED_ORIGINS).then(
    (items) => mirror(items && items[TRUSTED_ORIGINS]),
    () => mirror([]),
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'managed' && changes[TRUSTED_ORIGINS]) mirror(changes[TRUSTED_ORIGINS].newValue);
  });
})();
