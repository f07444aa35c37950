import { defineConfig } from '@playwright/test'

// Browser tests run in Debian's Chromium (CHROMIUM_PATH overrides). Each *.e2e.ts file starts
// its own server on a free port (tests/support/server.ts), so no webServer block is needed.
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.e2e\.ts$/,
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  retries: 0,
  reporter: [['list']],
  use: {
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
})
