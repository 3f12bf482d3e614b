import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isEdtfDate } from '../../../shared/edtf.js';
import { DUBLIN_CORE_ELEMENTS, DublinCoreSchema, StoredDublinCoreSchema } from '../../../shared/metadata.js';

describe('isEdtfDate: the EDTF level 0 and 1 forms an archivist writes', () => {
  const valid = [
    '2026', '2026-05', '2026-05-14', '2024-02-29', '2026-05-14T09:30:00Z', '2026-05-14T09:30:00+02:00', '2026-05-14T09:30:00',
    '0000', '-0300', 'Y170000002', 'Y-170000002',
    '2026?', '2026-05~', '2026-05-14%',
    '201X', '20XX', '2026-XX', '2026-05-XX', '2026-XX-XX',
    '2026-21', '2026-24',
    '2020/2026', '2026-05/2026', '2026-05-01/2026-05-31', '2026-05-01/..', '../1990', '1985/', '/1985', '2019~/2026?', '-0300/0200',
  ];
  const invalid = [
    '', 'May 2026', '2026-5', '26', '2026-13', '2026-00', '2026-02-30', '2023-02-29', '2026-04-31', '2026-05-14T25:00:00',
    '2026-05-14 09:30', '2026??', '2026-25', '2026-21-01', '2026-XX-05', '201X-05', 'Y2026', 'Y17000-05',
    '2026/2020', '2026-06-01/2026-05', '../..', '/', '2020/2022/2024', '2026-05-14/garbage',
  ];
  for (const s of valid) it(`accepts ${JSON.stringify(s)}`, () => assert.equal(isEdtfDate(s), true));
  for (const s of invalid) it(`refuses ${JSON.stringify(s)}`, () => assert.equal(isEdtfDate(s), false));
});

describe('DublinCoreSchema', () => {
  it('has the fifteen Dublin Core elements, and BagIt’s two fields', () => {
    assert.equal(DUBLIN_CORE_ELEMENTS.length, 15);
    assert.deepEqual(Object.keys(DublinCoreSchema.shape).sort(), [...DUBLIN_CORE_ELEMENTS, 'sourceOrganization', 'contactEmail'].sort());
    const m = DublinCoreSchema.parse({});
    for (const key of DUBLIN_CORE_ELEMENTS) assert.ok(key in m, key);
  });

  it('refuses a date that is not ISO 8601 / EDTF, quoting it', () => {
    const r = DublinCoreSchema.safeParse({ date: 'summer 2026' });
    assert.equal(r.success, false);
    assert.deepEqual(r.error!.issues.map((i) => i.path), [['date']]);
    assert.match(r.error!.issues[0]!.message, /^"summer 2026" is not an ISO 8601 \/ EDTF date/);
    assert.equal(DublinCoreSchema.parse({ date: ' 2026-05~ ' }).date, '2026-05~');
  });

  it('names each bad language tag, and stores good ones in canonical case', () => {
    const r = DublinCoreSchema.safeParse({ language: ['en', 'english', 'fr-ca', 'e!'] });
    assert.equal(r.success, false);
    assert.deepEqual(
      r.error!.issues.map((i) => [i.path.join('.'), i.message]),
      [
        ['language.1', '"english" is not a BCP 47 language tag; use a code such as en, fr-CA or zh-Hant'],
        ['language.3', '"e!" is not a BCP 47 language tag; use a code such as en, fr-CA or zh-Hant'],
      ],
    );
    assert.deepEqual(DublinCoreSchema.parse({ language: ['en', 'fr-ca', 'zh-hant-tw', 'x-Local'] }).language, ['en', 'fr-CA', 'zh-Hant-TW', 'x-local']);
  });

  it('still reads what an older version stored, so exports of old archives keep working', () => {
    const old = { title: 'Old', date: 'Spring 2024', language: ['english'] };
    assert.equal(DublinCoreSchema.safeParse(old).success, false);
    assert.deepEqual(StoredDublinCoreSchema.parse(old).language, ['english']);
  });
});
