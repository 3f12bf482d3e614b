import type { FocusReport } from '../../../shared/extracted.js';
import type { FocusStore } from './focusStore.js';

/** Values shown per field for a person to check. */
export const SAMPLE_SIZE = 5;

/**
 * A focused harvest's report: per field (`fields` first, in order, then any other), the pages that
 * held it, the values found (a row holds its values one a line) and the first SAMPLE_SIZE of them
 * with their page; the near-duplicate groups with each copy's similarity and whether it is marked no
 * near-duplicate (`--not-duplicate`, or the app), which the next re-crawl honours.
 */
export function focusReport(store: FocusStore, fields: readonly string[]): FocusReport {
  const byField = new Map(store.columns(fields).map((f) => [f, { field: f, pages: new Set<string>(), values: 0, sample: [] as { url: string; value: string }[] }]));
  for (const r of store.iterateExtracted()) {
    const s = byField.get(r.field);
    if (s === undefined) continue;
    s.pages.add(r.url);
    for (const value of r.value.split('\n')) {
      s.values++;
      if (s.sample.length < SAMPLE_SIZE) s.sample.push({ url: r.url, value });
    }
  }
  const groups: FocusReport['nearDuplicates'] = [];
  for (const p of store.nearDuplicatePairs()) {
    const last = groups[groups.length - 1];
    const copy = { url: p.url, similarity: p.similarity, notDuplicate: p.notDuplicate };
    if (last?.original === p.original) last.copies.push(copy);
    else groups.push({ original: p.original, copies: [copy] });
  }
  return { fields: [...byField.values()].map((s) => ({ ...s, pages: s.pages.size })), nearDuplicates: groups };
}
