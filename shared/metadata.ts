import { z } from 'zod';
import { isEdtfDate } from './edtf.js';

/**
 * Descriptive metadata of an archive: the fifteen Dublin Core elements
 * (https://www.dublincore.org/specifications/dublin-core/dces/), plus what BagIt's bag-info.txt asks
 * for. Edited by the archivist per archive, stored in its catalogue, and written into every export.
 */
const text = z.string().trim().max(10_000);
/** Shape checks only: enough to catch a value typed into the wrong field. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const list = (max: number) => z.array(z.string().trim().min(1).max(500)).max(max).default([]);

/**
 * A well-formed BCP 47 tag whose language is an ISO 639 code (2 or 3 letters; 'english' is
 * well-formed but no language has such a subtag), or a private-use tag such as x-klingon.
 */
export function isLanguageTag(tag: string): boolean {
  if (/^x(-[a-z0-9]{1,8})+$/i.test(tag)) return true;
  try {
    return Intl.getCanonicalLocales(tag).length === 1 && /^[a-z]{2,3}(-|$)/i.test(tag);
  } catch {
    return false;
  }
}

/** Every field as stored: read back as written, even where an older version accepted what is refused now. */
export const StoredDublinCoreSchema = z
  .object({
    title: text.default(''),
    creator: text.default(''),
    subject: list(200),
    description: text.default(''),
    publisher: text.default(''),
    /** People and organisations who contributed besides the creator. */
    contributor: list(200),
    /** EDTF (ISO 8601-2) levels 0 and 1 (see edtf.ts); empty means the crawl's own dates are used. */
    date: text.default(''),
    /** DCMI Type vocabulary, e.g. 'Collection', 'InteractiveResource'. */
    type: text.default(''),
    format: text.default(''),
    /** A reference to the archive in the institution's systems: a URL, DOI, call number. */
    identifier: text.default(''),
    source: text.default(''),
    /** BCP 47 tags, e.g. 'en', 'fr-CA'. */
    language: z.array(z.string().trim().min(1).max(50)).max(50).default([]),
    relation: text.default(''),
    coverage: text.default(''),
    rights: text.default(''),
    /** Not Dublin Core: what BagIt's bag-info.txt asks for (Source-Organization, Contact-Email). */
    sourceOrganization: text.default(''),
    contactEmail: text
      .refine((v) => v === '' || EMAIL_SHAPE.test(v), 'must be an email address such as archives@example.edu')
      .default(''),
  })
  .strict();

/** What the archivist enters: the stored fields, with the date and every language tag checked. */
export const DublinCoreSchema = StoredDublinCoreSchema.extend({
  date: text
    .refine((v) => v === '' || isEdtfDate(v), {
      error: (iss) =>
        `${JSON.stringify(iss.input)} is not an ISO 8601 / EDTF date; write e.g. 2026, 2026-05, 2026-05-14, 2020/2026, 2026-05~ (approximate), 1990? (uncertain) or 2026-01/.. (open end)`,
    })
    .default(''),
  language: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(50)
        .refine(isLanguageTag, { error: (iss) => `${JSON.stringify(iss.input)} is not a BCP 47 language tag; use a code such as en, fr-CA or zh-Hant` })
        // Stored in canonical case: 'fr-ca' becomes 'fr-CA'.
        .transform((tag) => (/^x-/i.test(tag) ? tag.toLowerCase() : Intl.getCanonicalLocales(tag)[0]!)),
    )
    .max(50)
    .default([]),
}).strict();

/** The fifteen Dublin Core elements, in the order the standard lists them. */
export const DUBLIN_CORE_ELEMENTS = [
  'title', 'creator', 'subject', 'description', 'publisher', 'contributor', 'date', 'type',
  'format', 'identifier', 'source', 'language', 'relation', 'coverage', 'rights',
] as const;

export type DublinCore = z.infer<typeof DublinCoreSchema>;

/** Every field in the order and with the labels people read them in. */
export const DUBLIN_CORE_LABELS: readonly (readonly [keyof DublinCore, string])[] = [
  ['title', 'Title'],
  ['creator', 'Creator'],
  ['subject', 'Subject'],
  ['description', 'Description'],
  ['publisher', 'Publisher'],
  ['contributor', 'Contributor'],
  ['date', 'Date'],
  ['type', 'Type'],
  ['format', 'Format'],
  ['identifier', 'Identifier'],
  ['source', 'Source'],
  ['language', 'Language'],
  ['relation', 'Relation'],
  ['coverage', 'Coverage'],
  ['rights', 'Rights'],
  ['sourceOrganization', 'Source organisation'],
  ['contactEmail', 'Contact email'],
];

/** The filled-in fields as label/value pairs, list fields joined. */
export function metadataLines(m: DublinCore): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, label] of DUBLIN_CORE_LABELS) {
    const v = m[key];
    const text = Array.isArray(v) ? v.join(', ') : v;
    if (text !== '') out.push([label, text]);
  }
  return out;
}
export type DublinCoreInput = z.input<typeof DublinCoreSchema>;

/** What the metadata editor fills an empty title and date with (see suggestMetadata). */
export interface MetadataSuggestion {
  /** The first seed's page title, or ''. */
  title: string;
  /** The crawl's day or days as EDTF, or ''. */
  date: string;
}

export const EXPORT_FORMATS = ['wacz', 'warc', 'zip', 'bagit'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportProgress {
  /** What is being done now, e.g. 'indexing WARC', 'hashing', 'writing'. */
  phase: string;
  doneBytes: number;
  /** 0 when unknown. */
  totalBytes: number;
}
