// Browser tests that reach the HTTPS listener need Chromium to accept its self-signed certificate
// (DATA_DIR/tls/cert.pem): the config's Chromium (tests/playwright.config.ts: the binary and its
// flags) with --ignore-certificate-errors, plus whatever a test adds.

import { chromium, test, type Browser } from '@playwright/test'

export function launchTrustingChromium(extra: string[] = []): Promise<Browser> {
  const base = test.info().project.use.launchOptions ?? {}
  return chromium.launch({ ...base, args: [...(base.args ?? []), '--ignore-certificate-errors', ...extra] })
}
