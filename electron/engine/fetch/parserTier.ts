import { setFlagsFromString } from 'node:v8';

let applied = false;

/**
 * undici parses HTTP with llhttp compiled to WebAssembly. V8 compiles it with its baseline compiler
 * first and, once the parser is hot, again with its optimising one, which holds some 30 MB for a
 * moment early in every crawl: a one-page crawl's peak RSS 129 -> 97 MB with the baseline code
 * only (medians of 5). The optimised parser saved about 1.5 µs per request: 256 against 279 ms of
 * a 5,000-page crawl's profile (about 15,000 requests) were in it. Process-wide, and set before the
 * first request compiles the parser: llhttp is the only WebAssembly a crawl runs.
 */
export function keepParserBaseline(): void {
  if (applied) return;
  applied = true;
  setFlagsFromString('--liftoff-only');
}
