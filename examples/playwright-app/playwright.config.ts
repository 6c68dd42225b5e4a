import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. Each worker starts its own fake (tests/fixtures.ts).
export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  workers: 2,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
