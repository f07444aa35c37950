// Browser tests whose expectations depend on the installed fonts choose the fonts their
// Chromium sees, so they pass on any machine (issue 12: Debian's imagemagick pulls in the URW,
// Noto Mono and Droid fonts, and a "server font set" then looked like a desktop). Chromium on
// Linux finds fonts through fontconfig, which reads the file named by FONTCONFIG_FILE instead
// of /etc/fonts/fonts.conf: a file in tests/support/fonts/ names the font files and rules.

import { test as base } from '@playwright/test'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { requirePrerequisite } from './prerequisites'

/** The font sets in tests/support/fonts/: `server` is DejaVu and Liberation (a Debian server or CI image). */
export type FontSet = 'server'

export const fontconfigFile = (set: FontSet): string => fileURLToPath(new URL(`./fonts/${set}.conf`, import.meta.url))

/** The files and directories a fontconfig file names (absolute paths without wildcards) that do not exist. */
export function missingFontPaths(conf: string): string[] {
  const paths = [...readFileSync(conf, 'utf8').matchAll(/<(?:dir|glob|include)\b[^>]*>\s*(\/[^<*?[]+?)\s*<\//g)].map((m) => m[1]!)
  return paths.filter((p) => !existsSync(p))
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/**
 * Playwright's `test` with a browser that sees only `set`'s fonts. The worker's launchOptions
 * gain FONTCONFIG_FILE, pointing at a wrapper that includes the set's file and keeps
 * fontconfig's cache in a temp dir: the host's caches and ~/.cache are neither read nor written.
 * A different launchOptions fixture puts these tests in their own worker, with their own browser.
 */
export function testWithFonts(set: FontSet) {
  return base.extend({
    launchOptions: [
      async ({ launchOptions }, use) => {
        const conf = fontconfigFile(set)
        const missing = missingFontPaths(conf)
        requirePrerequisite(missing.length > 0 && `${missing.join(', ')}, named by ${conf} (Debian's fonts-dejavu-core, fonts-liberation and fontconfig-config)`)
        const dir = mkdtempSync(join(tmpdir(), `antibot-fonts-${set}-`))
        const wrapper = join(dir, 'fonts.conf')
        writeFileSync(
          wrapper,
          `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n<fontconfig>\n  <include>${xml(conf)}</include>\n  <cachedir>${xml(join(dir, 'cache'))}</cachedir>\n</fontconfig>\n`,
        )
        const env: Record<string, string | undefined> = { ...process.env, FONTCONFIG_FILE: wrapper }
        // A sysroot would be prefixed to every path in the file.
        delete env.FONTCONFIG_SYSROOT
        try {
          await use({ ...launchOptions, env })
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      },
      { scope: 'worker' },
    ],
  })
}
