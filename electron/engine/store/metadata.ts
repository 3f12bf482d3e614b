import { DublinCoreSchema, StoredDublinCoreSchema, type DublinCore, type DublinCoreInput } from '../../../shared/metadata.js';
import type { Catalogue } from './catalogue.js';

/** The catalogue's meta key holding the archive's descriptive metadata (JSON). */
const META_KEY = 'dublin_core';

/**
 * The archive's descriptive metadata; every field empty until the archivist fills it in. Read as
 * stored (a date an older version let through still exports), checked again when next saved.
 */
export function readMetadata(catalogue: Catalogue): DublinCore {
  const raw = catalogue.getMeta(META_KEY);
  return StoredDublinCoreSchema.parse(raw === null ? {} : JSON.parse(raw));
}

/** Replaces the archive's metadata after validating it; throws zod's error on bad input. */
export function writeMetadata(catalogue: Catalogue, input: DublinCoreInput): DublinCore {
  const value = DublinCoreSchema.parse(input);
  catalogue.setMeta(META_KEY, JSON.stringify(value));
  return value;
}
