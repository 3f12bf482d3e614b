import { statSync } from 'node:fs';
import path from 'node:path';
import { verifyBag } from './verifyBag.js';
import { verifyWacz } from './verifyWacz.js';
import { VerifyInputError, type VerifyOptions, type VerifyReport } from './verifyReport.js';

export { VerifyInputError, type VerifyOptions, type VerifyProblem, type VerifyReport } from './verifyReport.js';

/** Verifies a bag (a folder) or a WACZ (a file) by re-hashing every file its manifests list. */
export async function verify(target: string, opts: VerifyOptions = {}): Promise<VerifyReport> {
  const abs = path.resolve(target);
  let isDir: boolean;
  try {
    isDir = statSync(abs).isDirectory();
  } catch (e) {
    throw new VerifyInputError(`cannot read ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return isDir ? verifyBag(abs, opts) : verifyWacz(abs, opts);
}
