import type { CatalogueStore } from './catalogueStore.js';
import { SqliteCatalogue } from './sqlite/sqliteCatalogue.js';

/**
 * The archive's catalogue, as the engine imports it: the row types, the errors, and `Catalogue`,
 * both the interface every part of the engine codes against (catalogueStore.ts) and the way to
 * open one. Today that is SQLite (sqlite/); another database would sit beside it and be chosen here.
 */
export * from './catalogueTypes.js';
export type * from './catalogueStore.js';

export type Catalogue = CatalogueStore;

export const Catalogue = {
  /** Opens (creating or upgrading unless read-only) the catalogue in `file`. */
  open(file: string, opts: { readonly?: boolean } = {}): Catalogue {
    return SqliteCatalogue.open(file, opts);
  },
};
