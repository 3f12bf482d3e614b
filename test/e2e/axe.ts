import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

/**
 * axe-core audits of the app's screens (issue 37: WCAG 2.2 AA). Every WCAG 2.0/2.1/2.2 A and AA
 * rule runs, and axe's best practices, in the light and the dark theme; any violation fails the test
 * with one line per element: rule, impact, target and axe's summary of what is wrong.
 */

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** The part of axe's result read here (axe-core's own types stay out of the e2e build). */
interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNode[];
}

let source: string | undefined;

/**
 * axe's source, evaluated rather than added as a <script>: the app's CSP (script-src 'self') would
 * refuse an inline script, and evaluation through the DevTools protocol is not subject to it.
 */
function axeSource(): string {
  source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** The violations on the page as it is now, one readable line each. */
export async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource());
  const found = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    // The viewer's frame holds an archived site's page, not the app: its markup is the site's.
    const result = await axe.run({ exclude: [['iframe[data-testid="viewer-frame"]']] }, { runOnly: { type: 'tag', values: tags }, iframes: false, resultTypes: ['violations'] });
    return result.violations;
  }, TAGS);
  return found.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}) at ${n.target.map(String).join(' > ')}: ${v.help}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`),
  );
}

/** Fails the test if axe finds any violation on the screen, in either theme. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    if (await page.locator('#root').count()) await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    expect.soft(await violations(page), `axe violations on ${screen} (${scheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
