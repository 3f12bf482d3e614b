import { z } from 'zod';

/**
 * A focused harvest's extracted records as the app shows them: one row per page capture, a column
 * per field (the template's fields first, in its order). `harvest extract` writes the same rows.
 * A field's `value` holds every value found for it, one a line (several phone numbers).
 */
export const ExtractedValueSchema = z.object({ value: z.string().min(1), confidence: z.number().min(0).max(1) });

export const ExtractedRecordSchema = z.object({
  url: z.string(),
  /** When the page was captured (its WARC record's date). */
  capture: z.string(),
  /** A near-duplicate's record: the URL of the page it repeats; null for an original. */
  duplicateOf: z.string().nullable(),
  fields: z.record(z.string(), ExtractedValueSchema),
});

export const ExtractedTableSchema = z.object({
  fields: z.array(z.string()),
  records: z.array(ExtractedRecordSchema),
  /** More records exist than were sent. */
  truncated: z.boolean(),
});

/**
 * What an archivist checks a focused harvest's output by (`harvest extract --format report`): per
 * field, how many pages held it, how many values were found, and a few to look at; and the
 * near-duplicate groups, each original with its copies and their similarity.
 */
export const FocusReportSchema = z.object({
  fields: z.array(
    z.object({
      field: z.string(),
      pages: z.number().int().nonnegative(),
      values: z.number().int().nonnegative(),
      sample: z.array(z.object({ url: z.string(), value: z.string() })),
    }),
  ),
  nearDuplicates: z.array(
    z.object({
      original: z.string(),
      copies: z
        .array(
          z.object({
            url: z.string(),
            similarity: z.number().min(0).max(1),
            /** Marked as no near-duplicate (a false flag): the next re-crawl judges it as an original. */
            notDuplicate: z.boolean(),
          }),
        )
        .min(1),
    }),
  ),
});

export type ExtractedRecord = z.infer<typeof ExtractedRecordSchema>;
export type FocusReport = z.infer<typeof FocusReportSchema>;

/** The answer to marking (or unmarking) a page as no near-duplicate. */
export interface NotDuplicateMark {
  url: string;
  notDuplicate: boolean;
}
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
    yield ['url', 'capture', 'duplicate_of', ...fields.flatMap((f) => [f, `${f}_confidence`])].map(csvCell).join(',') + '\r\n';
    for (const r of records) {
      const cells = [r.url, r.capture, r.duplicateOf ?? '', ...fields.flatMap((f) => [r.fields[f]?.value ?? '', r.fields[f] ? String(r.fields[f].confidence) : ''])];
      yield cells.map(csvCell).join(',') + '\r\n';
    }
  })();
}
