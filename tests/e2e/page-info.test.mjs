// page_info (extension/content/page-ops.js), the DOM facts the run loop
// sends beside each snapshot (crates/snapshot-core/src/observed.rs
// DomFacts): which row or card a repeated control acts on, in Chromium with
// the real extension.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, snapshot, viaWorker, suite } from '../lib/harness.mjs';

const env = suite();

test('a control repeated on cards of plain divs gets its own card words as its row; one named once gets none', async () => {
  const page = await open(env.browser.context, `${env.server.url}/product-cards.html`);
  try {
    const snap = await snapshot(page);
    assert.equal(snap.status, 'success', snap.error);
    const buttons = snap.elements.filter((e) => e.role === 'button');
    const named = (text) => buttons.filter((e) => e.text === text).map((e) => e.id);
    const add = named('Add to cart');
    const save = named('Save for later');
    const [remove] = named('Remove');
    const [checkout] = named('Checkout');
    assert.equal(add.length, 3, JSON.stringify(buttons));
    assert.equal(save.length, 3, JSON.stringify(buttons));
    assert.ok(remove && checkout, JSON.stringify(buttons));
    const info = await viaWorker(env.browser.worker, page, 'page_info', { ids: [...add, ...save, remove, checkout] });
    const rowOf = (id) => info.elements[id].row;
    const cards = ['Trail socks $12', 'Rain jacket $89', 'Wool hat $20'];
    cards.forEach((words, i) => {
      for (const id of [add[i], save[i]]) {
        const row = rowOf(id);
        assert.ok(row && row.startsWith(words), `card ${i}: row ${JSON.stringify(row)}`);
        for (const other of cards.filter((w) => w !== words)) assert.ok(!row.includes(other), `card ${i}'s row holds ${other}: ${row}`);
      }
    });
    // Named by aria-label: the name is sent, and it is what groups them.
    assert.equal(info.elements[save[0]].ariaLabel, 'Save for later');
    // A list item's control: the item is its row (not a card).
    assert.equal(rowOf(remove), 'Gift card Remove');
    // A control the page has once is no item's.
    assert.equal(rowOf(checkout), undefined);
  } finally {
    await page.close();
  }
});
