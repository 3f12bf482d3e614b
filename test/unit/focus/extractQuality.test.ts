import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTemplate } from '../../../shared/template.js';
import { FieldExtractor } from '../../../electron/engine/focus/extract.js';
import { CONTACT_FIXTURE_TEMPLATE, CONTACT_PAGES } from '../../helpers/contactFixture.js';

const FIELDS = ['name', 'address', 'phone', 'email', 'fax', 'postcode'] as const;

describe('extraction on the contact fixture', () => {
  it('reaches precision and recall of at least 0.95 for every field', (t) => {
    const extractor = new FieldExtractor(parseTemplate(CONTACT_FIXTURE_TEMPLATE).extract);
    const tally = Object.fromEntries(FIELDS.map((f) => [f, { found: 0, right: 0, truth: 0 }]));
    for (const page of CONTACT_PAGES) {
      const got = new Map(extractor.extract(page.html).map((v) => [v.field, v.value.split('\n')]));
      for (const f of FIELDS) {
        const want = page.truth[f] ?? [];
        const values = got.get(f) ?? [];
        tally[f]!.truth += want.length;
        tally[f]!.found += values.length;
        tally[f]!.right += values.filter((v) => want.includes(v)).length;
        if (values.join('|') !== want.join('|')) t.diagnostic(`${f}: got ${JSON.stringify(values)}, want ${JSON.stringify(want)}`);
      }
    }
    const figures = FIELDS.map((f) => {
      const { found, right, truth } = tally[f]!;
      const precision = found === 0 ? 1 : right / found;
      const recall = right / truth;
      t.diagnostic(`${f}: precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} (${right} of ${found} found, ${truth} true)`);
      return { f, precision, recall };
    });
    for (const { f, precision, recall } of figures) assert.ok(precision >= 0.95 && recall >= 0.95, `${f}: precision ${precision}, recall ${recall}`);
  });
});
