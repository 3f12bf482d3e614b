import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { datapackageJson, licenseOf } from '../../../electron/engine/export/datapackage.js';
import { DublinCoreSchema } from '../../../shared/metadata.js';

const pkg = (metadata: Record<string, unknown>, harvestStarted: string | null = '2026-05-01T08:00:00.000Z') =>
  JSON.parse(
    datapackageJson({
      resources: [{ path: 'archive/a.warc.gz', hash: 'sha256:00', bytes: 1 }],
      metadata: DublinCoreSchema.parse(metadata),
      fallbackTitle: 'Job name',
      mainPage: null,
      software: 'Harvest/test',
      harvestStarted,
      written: new Date('2026-06-01T10:00:00.000Z'),
    }).toString(),
  ) as Record<string, unknown>;

describe('datapackage.json', () => {
  it('maps Dublin Core onto the Data Package fields and keeps the dublinCore block', () => {
    const p = pkg({
      title: 'Faculty of Law',
      description: 'Its public site',
      subject: ['law'],
      creator: 'University Archives',
      publisher: 'The University',
      contributor: ['Web team'],
      rights: 'CC-BY-4.0',
      sourceOrganization: 'University Archives',
      contactEmail: 'archives@example.edu',
    });
    assert.equal(p.title, 'Faculty of Law');
    assert.equal(p.description, 'Its public site');
    assert.deepEqual(p.keywords, ['law']);
    assert.deepEqual(p.licenses, [{ name: 'CC-BY-4.0' }]);
    assert.deepEqual(p.contributors, [
      { title: 'University Archives', role: 'author' },
      { title: 'The University', role: 'publisher' },
      { title: 'Web team', role: 'contributor' },
      { title: 'University Archives', email: 'archives@example.edu', role: 'maintainer' },
    ]);
    assert.equal(p.created, '2026-05-01T08:00:00.000Z');
    assert.equal(p.modified, '2026-06-01T10:00:00.000Z');
    assert.equal((p.dublinCore as Record<string, unknown>).rights, 'CC-BY-4.0');
  });

  it('leaves out what was not filled in, and dates an archive never crawled by its export', () => {
    const p = pkg({}, null);
    assert.equal(p.title, 'Job name');
    for (const key of ['description', 'keywords', 'licenses', 'contributors', 'dublinCore']) assert.equal(key in p, false, key);
    assert.equal(p.created, '2026-06-01T10:00:00.000Z');
  });

  it('gives every license a name or a path, as the Data Package spec requires', () => {
    assert.deepEqual(licenseOf('CC0-1.0'), { name: 'CC0-1.0' });
    assert.deepEqual(licenseOf('Licensed under https://creativecommons.org/licenses/by-nc/4.0/.'), {
      path: 'https://creativecommons.org/licenses/by-nc/4.0/',
      title: 'Licensed under https://creativecommons.org/licenses/by-nc/4.0/.',
    });
    assert.deepEqual(licenseOf('© 2026 The University. All rights reserved.'), {
      name: 'LicenseRef-rights-statement',
      title: '© 2026 The University. All rights reserved.',
    });
  });
});
