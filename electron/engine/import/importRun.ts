import path from 'node:path';
import { z } from 'zod';
import type { Catalogue } from '../store/catalogue.js';

/** The catalogue's record of what an import was asked to do: enough to run it again to its end. */
const IMPORT_RUN = 'import_run';
/** 'reading' while records are read; 'rewriting' once all are committed and the offline copy is being written. */
const IMPORT_PHASE = 'import_phase';

const importRun = z.object({ inputs: z.array(z.string()).min(1), name: z.string().nullable() }).strict();
export type ImportRun = z.infer<typeof importRun>;
export type ImportPhase = 'reading' | 'rewriting';

/** The import an archive was made by; null for a crawled archive (or one imported before imports resumed). */
export function importRunOf(c: Catalogue): ImportRun | null {
  const raw = c.getMeta(IMPORT_RUN);
  return raw === null ? null : importRun.parse(JSON.parse(raw));
}

export function setImportRun(c: Catalogue, run: ImportRun): void {
  c.setMeta(IMPORT_RUN, JSON.stringify(run));
}

export function importPhaseOf(c: Catalogue): ImportPhase {
  return c.getMeta(IMPORT_PHASE) === 'rewriting' ? 'rewriting' : 'reading';
}

export function setImportPhase(c: Catalogue, phase: ImportPhase): void {
  c.setMeta(IMPORT_PHASE, phase);
}

/** The inputs as the catalogue keeps them: absolute, so a resume from another folder finds them. */
export function runInputs(inputs: readonly string[]): string[] {
  return inputs.map((i) => path.resolve(i));
}
