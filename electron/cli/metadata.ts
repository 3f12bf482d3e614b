import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DublinCoreSchema, type DublinCore, type DublinCoreInput } from '../../shared/metadata.js';
import { Archive, ArchiveUsageError } from '../engine/store/archive.js';
import { ArchiveFormatError, ArchiveInUseError } from '../engine/store/catalogue.js';
import { writeEntryPage } from '../engine/crawl/entryPage.js';
import { readMetadata, writeMetadata } from '../engine/store/metadata.js';
import { METADATA_USAGE } from './usage.js';

const FIELDS = Object.keys(DublinCoreSchema.shape) as (keyof DublinCore)[];
const LIST_FIELDS = new Set<keyof DublinCore>(['subject', 'contributor', 'language']);

class MetadataUsageError extends Error {}

/** 'contact-email', 'Contact_Email' and 'contactEmail' all name the same field. */
function fieldNamed(name: string): keyof DublinCore {
  const key = name.toLowerCase().replace(/[-_]/g, '');
  const field = FIELDS.find((f) => f.toLowerCase() === key);
  if (field === undefined) throw new MetadataUsageError(`unknown field '${name}'; fields: ${FIELDS.join(', ')}`);
  return field;
}

/**
 * Applies `field=value` settings over the stored metadata. An empty value clears a field; subject
 * and language take comma-separated values and, repeated, add to each other (replacing what was
 * stored before this command).
 */
export function applySettings(current: DublinCore, settings: string[]): DublinCoreInput {
  const next: DublinCoreInput = { ...current };
  const listsSet = new Set<keyof DublinCore>();
  for (const s of settings) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new MetadataUsageError(`--set needs field=value, got '${s}'`);
    const field = fieldNamed(s.slice(0, eq));
    const value = s.slice(eq + 1);
    if (LIST_FIELDS.has(field)) {
      const items = value.split(',').map((v) => v.trim()).filter((v) => v !== '');
      const before = listsSet.has(field) ? ((next[field] as string[] | undefined) ?? []) : [];
      (next as Record<string, unknown>)[field] = [...before, ...items];
      listsSet.add(field);
    } else (next as Record<string, unknown>)[field] = value;
  }
  return next;
}

function formatMetadata(m: DublinCore): string {
  const width = Math.max(...FIELDS.map((f) => f.length));
  return FIELDS.map((f) => {
    const v = m[f];
    return `${f.padEnd(width)}  ${Array.isArray(v) ? v.join(', ') : v}`.trimEnd() + '\n';
  }).join('');
}

/** `harvest metadata`: shows or edits an archive's Dublin Core terms. Exit 0 done, 2 bad input. */
export async function runMetadata(args: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args,
        options: { set: { type: 'string', multiple: true }, json: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new MetadataUsageError((e as Error).message);
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1) throw new MetadataUsageError('metadata needs exactly one <archive-dir>');
    const settings = values.set ?? [];
    const archive = openArchive(positionals[0]!, settings.length === 0);
    try {
      let m = readMetadata(archive.catalogue);
      if (settings.length > 0) {
        m = writeMetadata(archive.catalogue, applySettings(m, settings));
        // The mirror's front door shows the title and description.
        writeEntryPage(archive);
      }
      process.stdout.write(values.json ? JSON.stringify(m, null, 2) + '\n' : formatMetadata(m));
    } finally {
      archive.close();
    }
    return 0;
  } catch (e) {
    if (e instanceof z.ZodError) {
      const issues = e.issues.map((i) => `${String(i.path[0] ?? 'metadata')}: ${i.message}`);
      process.stderr.write(`harvest: metadata not saved: ${issues.join('; ')}\n`);
      return 2;
    }
    if (e instanceof MetadataUsageError || e instanceof ArchiveUsageError || e instanceof ArchiveFormatError) {
      process.stderr.write(`harvest: ${e.message}\n`);
      if (e instanceof MetadataUsageError) process.stderr.write(`usage: ${METADATA_USAGE}\n`);
      return 2;
    }
    throw e;
  }
}

function openArchive(dir: string, readonly: boolean): Archive {
  try {
    return Archive.open(dir, { readonly });
  } catch (e) {
    if (e instanceof ArchiveInUseError) {
      throw new ArchiveUsageError(
        `${dir} is in use by a running crawl (or another Harvest process); ` +
          `pause it (Ctrl-C) or let it finish, then ${readonly ? 'show' : 'edit'} its metadata`,
      );
    }
    throw e;
  }
}
