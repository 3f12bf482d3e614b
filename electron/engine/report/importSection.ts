import { z } from 'zod';
import type { ImportReport } from '../../../shared/report.js';
import type { CatalogueStore } from '../store/catalogueStore.js';

// As importArchives.ts writes them; archives imported before duplicates were counted lack those.
const filesSchema = z.array(
  z.object({
    file: z.string(),
    bytes: z.number(),
    records: z.number(),
    duplicates: z.number().default(0),
    capture: z.number().nullable().default(null),
    warc: z.string().nullable().default(null),
  }),
);
const problemsSchema = z.array(z.object({ file: z.string(), offset: z.number(), why: z.string() }));

/** The import section of the QA report, from what the import kept in the catalogue; null for a crawled archive. */
export function importSection(c: CatalogueStore): ImportReport | null {
  const files = c.getMeta('imported_from');
  if (files === null) return null;
  const parsedFiles = filesSchema.safeParse(JSON.parse(files));
  const parsedProblems = problemsSchema.safeParse(JSON.parse(c.getMeta('import_problems') ?? '[]'));
  const problems = parsedProblems.success ? parsedProblems.data : [];
  return {
    files: parsedFiles.success ? parsedFiles.data : [],
    skipped: Number(c.getMeta('import_skipped') ?? problems.length),
    problems,
  };
}
