import { defineConfig } from '@playwright/test'

// Browser tests run in Debian's Chromium (CHROMIUM_PATH overrides). Each *.e2e.ts file starts
// its own server on a free port (tests/support/server.ts), so no webServer block is needed.
// Two projects, run one after the other by `npm run test:e2e` (the gate's step): `network`
// (tests/tcp-syn.e2e.ts) makes network namespaces and veth pairs, and a Chromium running beside
// it in the other worker sees the machine's interfaces change and fails its navigation with
// net::ERR_NETWORK_CHANGED (a CI run lost tests/run.e2e.ts's HTTPS test to it). Not a project
// dependency: a failure in `pages` would then skip `network`, and the gate shows every failure.
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.e2e\.ts$/,
  fullyParallel: false,
  workers: 2,
  timeout: 60_000,
  retries: 0,
  reporter: [['list']],
  projects: [
    { name: 'pages', testIgnore: /tcp-syn\.e2e\.ts$/ },
    { name: 'network', testMatch: /tcp-syn\.e2e\.ts$/ },
  ],
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
