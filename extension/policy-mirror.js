// Mirrors the administrator's `trusted_origins` (managed storage,
// extension/managed-schema.json) into storage.local as
// `managed_trusted_origins`, where content scripts read it without waiting.
// The first managed-storage read of a browser session waits for the policy
// service (1–2 s on Linux); content/trust.js uses this mirror only to
// answer "not trusted" early and still confirms every grant with the
// policy itself (docs/api.md, "Who may see and do what").
'use strict';

(() => {
  const KEY = 'trusted_origins';
  const MIRROR_KEY = 'managed_trusted_origins';

  function mirror(list) {
    return chrome.storage.local.set({ [MIRROR_KEY]: Array.isArray(list) ? list : [] }).catch(() => {});
  }

  if (!chrome.storage.managed) return;
  chrome.storage.managed.get(KEY).then(
    (items) => mirror(items && items[KEY]),
    () => mirror([]),
  );
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'managed' && changes[KEY]) mirror(changes[KEY].newValue);
  });
})();
