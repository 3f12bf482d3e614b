/**
 * What every command shares about how it is called, kept apart from the commands themselves so
 * that `harvest` loads a command's module (and its dependencies) only when that command runs.
 */

/** The command line itself is wrong: reported with a pointer to --help, exit status 2. */
export class UsageError extends Error {}

export const METADATA_USAGE = 'harvest metadata <archive-dir> [--set field=value ...] [--json]';
export const VERIFY_USAGE = 'harvest verify <bag-dir-or-wacz> [--json] [--quiet]';
