import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkPrefix, warcFileName, warcFilesOf } from '../../../electron/engine/warc/fileNames.js';

describe('WARC file names', () => {
  it('are <prefix>-<UTC yyyyMMddHHmmssSSS>-<5-digit serial>.warc.gz', () => {
    assert.equal(warcFileName('harvest', new Date('2024-05-01T12:34:56.789Z'), 7), 'harvest-20240501123456789-00007.warc.gz');
    assert.equal(warcFileName('h', new Date('2024-05-01T12:34:56Z'), 123456), 'h-20240501123456000-123456.warc.gz');
  });

  it('are found again by prefix, unfinished or not, by serial', () => {
    const found = warcFilesOf('harvest', [
      'harvest-20240501123456789-00002.warc.gz.open',
      'harvest-20240501123456789-00000.warc.gz',
      'harvest-x-20240501123456789-00001.warc.gz',
      'harvest-20240501123456789-00001.warc.gz.cut-120',
      'other-20240501123456789-00001.warc.gz',
      'harvest-20240501123456789-00010.warc.gz',
      'catalogue.sqlite',
    ]);
    assert.deepEqual(found, [
      { name: 'harvest-20240501123456789-00000.warc.gz', serial: 0, open: false },
      { name: 'harvest-20240501123456789-00002.warc.gz', serial: 2, open: true },
      { name: 'harvest-20240501123456789-00010.warc.gz', serial: 10, open: false },
    ]);
  });

  it('take only prefixes that are plain names', () => {
    for (const ok of ['harvest', 'my.crawl_2024-a']) assert.doesNotThrow(() => checkPrefix(ok));
    for (const bad of ['', 'a/b', '..\\x', 'a b', 'caf\u00e9']) assert.throws(() => checkPrefix(bad));
  });
});
