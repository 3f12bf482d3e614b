import type { CatalogueStore } from './catalogueStore.js';
import { SqliteCatalogue } from './sqlite/sqliteCatalogue.js';
import { WriterLock } from './sqlite/writerLock.js';

/**
 * The archive's catalogue, as the engine imports it: the row types, the errors, and `Catalogue`,
 * both the interface every part of the engine codes against (catalogueStore.ts) and the way to
 * open one. Today that is SQLite (sqlite/); another database would sit beside it and be chosen here.
 */
export * from './catalogueTypes.js';
export type * from './catalogueStore.js';

export type Catalogue = CatalogueStore;

export const Catalogue = {
  /**
   * Opens (creating or upgrading unless read-only) the catalogue in `file`. Open for writing, it
   * holds the archive's writer lock until closed (ArchiveInUseError if another holds it); read-only
   * opens take no lock, and read while another process writes.
   */
  open(file: string, opts: { readonly?: boolean } = {}): Catalogue {
    return SqliteCatalogue.open(file, opts);
  },
  /** Whether a process (this one included) has the catalogue in `file` open for writing now. */
  isBeingWritten(file: string): boolean {
    return WriterLock.isHeld(file);
  },
  /** Holds the writer lock of the catalogue in `file` without opening it (ArchiveInUseError if held), until released. */
  holdWriterLock(file: string): { release(): void } {
    return WriterLock.take(file);
  },
};
