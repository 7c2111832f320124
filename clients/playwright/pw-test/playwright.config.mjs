// The Playwright Test fixture's own suite (run by test/fixture.test.mjs; outside test/, which node --test runs whole).
export default { testDir: '.', testMatch: /.*\.spec\.mjs/, workers: 1, reporter: 'line', timeout: 30000 };
