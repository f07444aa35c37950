// TEMP debugging script (helper): visits tools with given visitors and dumps every non-pass check with observed/expected, plus selected ids.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer } from '../support/server'
import { injectedFingerprint, playwrightTask } from './clients'
import { PEOPLE, visit, type PersonContext } from './person'
import { startXvfb } from './xvfb'

const [visitorsArg, toolsArg, showArg] = process.argv.slice(2)
const visitors = visitorsArg!.split(',')
const tools = toolsArg!.split(',')
const show = new Set((showArg ?? '').split(',').filter(Boolean))
const server = await startServer({ STUN_PORT: '0', TLS_PORT: '0' })
const key = await server.makeKey({ plan: 'pro' })
const out: Record<string, unknown> = {}
try {
  for (const v of visitors) {
    const dir = mkdtempSync(join(tmpdir(), 'dump-'))
    const ctx: PersonContext = { pageUrl: '', baseUrl: server.baseUrl, adminToken: server.adminToken, chromium: '/usr/bin/chromium', chromedriver: '', firefox: '/usr/bin/firefox-esr', dir, timeoutMs: 30000 }
    const report = async (tool: string, task: string) => {
      const res = await fetch(`${server.baseUrl}/api/antibot/tasks/${task}`, { headers: { authorization: `Bearer ${key}` } })
      const body = (await res.json()) as any
      out[`${v}/${tool}`] = body
      console.log(`\n### ${v} ${tool}: ${body.score}`)
      for (const c of body.results.checks ?? []) if (c.verdict !== 'pass' && c.verdict !== 'na' || show.has(c.id) || show.has('*')) console.log(`  ${c.verdict} ${c.id}: observed ${JSON.stringify(c.observed)} | expected ${JSON.stringify(c.expected)}`)
    }
    try {
      if (v.startsWith('spoofer')) {
        const [, os, b] = v.split('-')
        await injectedFingerprint(ctx, (os === 'macos' ? 'macos' : 'windows'), async (newPage) => {
          for (const tool of tools) {
            const page = await newPage()
            const task = await playwrightTask(page, { pageUrl: `${ctx.baseUrl}/tools/${tool}`, timeoutMs: 30000 })
            await page.close()
            await report(tool, task)
          }
        }, (b === 'firefox' ? 'firefox' : 'chrome'))
      } else {
        const p = PEOPLE[v]!
        const xvfb = await startXvfb()
        try {
          for (const tool of tools) await report(tool, await visit(ctx, p.browser, p.launch(ctx, `${ctx.baseUrl}/tools/${tool}`, join(dir, `profile-${tool}`)), tool, xvfb.display))
        } finally { await xvfb.stop() }
      }
    } finally { rmSync(dir, { recursive: true, force: true }) }
  }
} finally {
  await server.stop()
  writeFileSync('/tmp/dbg/dump.json', JSON.stringify(out, null, 1))
}
process.exit(0)
