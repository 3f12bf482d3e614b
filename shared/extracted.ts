import { z } from 'zod';

/**
 * A focused harvest's extracted records as the app shows them: one row per page capture, a column
 * per field (the template's fields first, in its order). `harvest extract` writes the same rows.
 */
export const ExtractedValueSchema = z.object({ value: z.string(), confidence: z.number() });

export const ExtractedRecordSchema = z.object({
  url: z.string(),
  /** When the page was captured (its WARC record's date). */
  capture: z.string(),
  fields: z.record(z.string(), ExtractedValueSchema),
});

export const ExtractedTableSchema = z.object({
  fields: z.array(z.string()),
  records: z.array(ExtractedRecordSchema),
  /** More records exist than were sent. */
  truncated: z.boolean(),
});

export type ExtractedRecord = z.infer<typeof ExtractedRecordSchema>;
export type ExtractedTable = z.infer<typeof ExtractedTableSchema>;

/** What spreadsheets take a cell starting with as a formula (`=HYPERLINK(…)`, `@SUM(…)`, DDE via tab or CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180: quoted when it holds a comma, quote or line break. Crawled text that a spreadsheet
 * would run as a formula is kept as text with a leading apostrophe (OWASP's CSV injection advice).
 */
export function csvCell(v: string): string {
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header and one line per record, as `harvest extract --format csv` writes them. */
export function extractedCsvLines(fields: readonly string[], records: Iterable<ExtractedRecord>): Generator<string> {
  return (function* () {
    yield ['url', 'capture', ...fields.flatMap((f) => [f, `${f}_confidence`])].map(csvCell).join(',') + '\r\n';
    for (const r of records) {
      const cells = [r.url, r.capture, ...fields.flatMap((f) => [r.fields[f]?.value ?? '', r.fields[f] ? String(r.fields[f].confidence) : ''])];
      yield cells.map(csvCell).join(',') + '\r\n';
    }
  })();
}
