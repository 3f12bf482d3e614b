import { readFileSync } from 'node:fs';
import { parseTemplate, TemplateValidationError, type Template } from '../../shared/template.js';
import { UsageError } from './usage.js';

/** Reads `--template <file>`; every problem is a UsageError naming the file and, for a bad field, the field. */
export function readTemplateFile(file: string): Template {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--template: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, 'crawl');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--template: ${file} is not valid JSON (${(e as Error).message})`, 'crawl');
  }
  try {
    return parseTemplate(json);
  } catch (e) {
    if (!(e instanceof TemplateValidationError)) throw e;
    throw new UsageError(`--template ${file}: ${e.message}`, 'crawl');
  }
}
