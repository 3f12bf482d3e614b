import './helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { setApi } from '../../renderer/api/index.js';
import { MetadataEditor } from '../../renderer/features/MetadataEditor/index.js';
import { useToasts } from '../../renderer/stores/toasts.js';
import type { ArchiveSummary } from '../../shared/appViews.js';
import { DUBLIN_CORE_ELEMENTS, DublinCoreSchema, type DublinCore } from '../../shared/metadata.js';
import { fakeApi, ok, type FakeApi } from './helpers/fakeApi.js';
import { resetStores } from './helpers/fixtures.js';

const archive: ArchiveSummary = {
  jobId: 'law',
  name: 'Law school',
  seeds: ['http://law.test/'],
  archiveDir: '/data/law',
  createdAt: '2026-05-14T00:00:00.000Z',
  finishedAt: '2026-05-16T00:00:00.000Z',
  status: 'finished',
  pages: 10,
  bytesOnDisk: 2048,
};

const settle = () => act(async () => new Promise((r) => setTimeout(r, 5)));
const input = (key: string) => screen.getByTestId(`metadata-${key}`) as HTMLInputElement;

describe('the metadata editor', () => {
  let api: FakeApi;
  let closed: number;
  let stored: DublinCore;

  beforeEach(async () => {
    resetStores();
    closed = 0;
    stored = DublinCoreSchema.parse({ subject: ['law'] });
    api = fakeApi({
      'archives.getMetadata': () => ok(stored),
      'archives.suggestMetadata': () => ok({ title: 'Faculty of Law — Home', date: '2026-05-14/2026-05-16' }),
      'archives.setMetadata': (a) => ok(a.metadata as DublinCore),
    });
    setApi(api);
  });
  afterEach(cleanup);

  const open = async () => {
    render(<MetadataEditor archive={archive} onClose={() => closed++} />);
    await settle();
  };

  it('offers all fifteen Dublin Core elements, and the two BagIt fields', async () => {
    await open();
    for (const key of [...DUBLIN_CORE_ELEMENTS, 'sourceOrganization', 'contactEmail']) assert.ok(input(key), key);
  });

  it("prefills an empty title from the seed's page and the date from the crawl, saying so", async () => {
    await open();
    assert.equal(input('title').value, 'Faculty of Law — Home');
    assert.equal(input('date').value, '2026-05-14/2026-05-16');
    assert.ok(screen.getByTestId('metadata-title-suggested'));
    fireEvent.change(input('title'), { target: { value: 'Faculty of Law website' } });
    assert.equal(screen.queryByTestId('metadata-title-suggested'), null);
    await act(async () => fireEvent.click(screen.getByTestId('metadata-save')));
    const saved = api.callsTo('archives.setMetadata')[0] as { metadata: DublinCore };
    assert.equal(saved.metadata.title, 'Faculty of Law website');
    assert.equal(saved.metadata.date, '2026-05-14/2026-05-16');
  });

  it('keeps what the archivist already wrote', async () => {
    stored = DublinCoreSchema.parse({ title: 'Law, as described', date: '2026' });
    await open();
    assert.equal(input('title').value, 'Law, as described');
    assert.equal(input('date').value, '2026');
    assert.equal(screen.queryByTestId('metadata-title-suggested'), null);
  });

  it('refuses a date that is not EDTF and names the bad language tag, before saving anything', async () => {
    await open();
    fireEvent.change(input('date'), { target: { value: 'last spring' } });
    fireEvent.change(input('language'), { target: { value: 'en, english' } });
    await act(async () => fireEvent.click(screen.getByTestId('metadata-save')));
    assert.deepEqual(api.callsTo('archives.setMetadata'), []);
    assert.match(screen.getByTestId('metadata-date-issues').textContent!, /"last spring" is not an ISO 8601 \/ EDTF date/);
    assert.match(screen.getByTestId('metadata-language-issues').textContent!, /"english" is not a BCP 47 language tag/);
    assert.equal(input('date').getAttribute('aria-invalid'), 'true');
    // Corrected, the message goes at once.
    fireEvent.change(input('date'), { target: { value: '2026-05~' } });
    assert.equal(screen.queryByTestId('metadata-date-issues'), null);
  });

  it('names a bad date as soon as the field is left', async () => {
    await open();
    fireEvent.change(input('date'), { target: { value: '2026-13' } });
    fireEvent.blur(input('date'));
    assert.match(screen.getByTestId('metadata-date-issues').textContent!, /"2026-13"/);
  });

  it('keeps Save outside the scrolling fields, and confirms a save', async () => {
    await open();
    const fields = document.querySelector('.metadata-fields')!;
    assert.ok(fields.contains(input('rights')));
    assert.equal(fields.contains(screen.getByTestId('metadata-save')), false);
    await act(async () => fireEvent.click(screen.getByTestId('metadata-save')));
    assert.equal(api.callsTo('archives.setMetadata').length, 1);
    assert.equal(closed, 1);
    const toast = useToasts.getState().toasts.at(-1)!;
    assert.equal(toast.kind, 'info');
    assert.match(toast.message, /^Metadata of “Law school” saved/);
  });
});
