/** An input the user can fix: a missing file, a folder with nothing to import, an unreadable WACZ. */
export class ImportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportInputError';
  }
}
