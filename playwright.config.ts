import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive the real renderer through `harvest serve` in Debian's Chromium (Playwright
 * can't download its own browsers here). Every test's requests are checked to stay on 127.0.0.1
 * (see test/e2e/fixtures.ts).
 */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  workers: 1,
  fullyParallel: false,
  timeout: 120_000,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    },
  },
});
