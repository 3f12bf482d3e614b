import { z } from 'zod';

/**
 * Descriptive metadata of an archive, as Dublin Core terms (https://www.dublincore.org/specifications/dublin-core/dcmi-terms/).
 * Edited by the archivist per archive, stored in its catalogue, and written into every export.
 */
const text = z.string().trim().max(10_000);
/** Shape checks only: enough to catch a value typed into the wrong field. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BCP47_SHAPE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

export const DublinCoreSchema = z
  .object({
    title: text.default(''),
    creator: text.default(''),
    subject: z.array(z.string().trim().min(1).max(500)).max(200).default([]),
    description: text.default(''),
    publisher: text.default(''),
    /** Free text or ISO 8601; empty means the crawl's own dates are used. */
    date: text.default(''),
    rights: text.default(''),
    /** BCP 47 tags, e.g. 'en', 'fr-CA'. */
    language: z
      .array(z.string().trim().min(1).max(50).regex(BCP47_SHAPE, 'must be a BCP 47 language tag such as en or fr-CA'))
      .max(50)
      .default([]),
    coverage: text.default(''),
    /** Not Dublin Core: what BagIt's bag-info.txt asks for (Source-Organization, Contact-Email). */
    sourceOrganization: text.default(''),
    contactEmail: text
      .refine((v) => v === '' || EMAIL_SHAPE.test(v), 'must be an email address such as archives@example.edu')
      .default(''),
  })
  .strict();

export type DublinCore = z.infer<typeof DublinCoreSchema>;
export type DublinCoreInput = z.input<typeof DublinCoreSchema>;

export const EXPORT_FORMATS = ['wacz', 'warc', 'zip', 'bagit'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportProgress {
  /** What is being done now, e.g. 'indexing WARC', 'hashing', 'writing'. */
  phase: string;
  doneBytes: number;
  /** 0 when unknown. */
  totalBytes: number;
}
