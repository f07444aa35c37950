// A signed agent's browser (issue 60): headless Chromium whose every request passes a small
// signing proxy, as hosted agent browsers sign theirs — the proxy adds a Web Bot Auth signature
// (the npm `web-bot-auth` signer, legacy form) naming a key directory the test serves over
// HTTPS with a CA of its own. The page load, the page's submission and its report are signed:
// the task says the agent verified and names it, bot-detector calls it a bot, the page says so.

import { expect, test } from '@playwright/test'
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { DIRECTORY_MEDIA_TYPE } from '../src/agents/directory-fetch'
import { makeAgentKey, signLegacy } from './support/agent-signers'
import { launchTrustingChromium } from './support/chromium'
import { startServer, type RunningServer } from './support/server'
import { makeTrustedCa, type TrustedCa } from './support/trusted-ca'

const key = makeAgentKey()
let ca: TrustedCa
let directory: Server
let directoryOrigin: string
let proxy: Server
let proxyUrl: string
let server: RunningServer
let apiKey: string
let signed = 0

const listen = (s: Server) => new Promise<number>((ok) => s.listen(0, '127.0.0.1', () => ok((s.address() as AddressInfo).port)))

test.beforeAll(async () => {
  ca = makeTrustedCa({ engines: [] })
  directory = createHttpsServer({ cert: readFileSync(ca.certFile), key: readFileSync(ca.keyFile) }, (_req, res) => {
    res.writeHead(200, { 'content-type': DIRECTORY_MEDIA_TYPE, 'cache-control': 'max-age=300' }).end(JSON.stringify({ keys: [key.publicJwk] }))
  })
  directoryOrigin = `https://127.0.0.1:${await listen(directory)}`
  // The signing proxy: Chromium sends it absolute-form requests; it signs each one for its
  // target and forwards it there, the response piped back as it came.
  proxy = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const target = new URL(req.url!)
      const signature = await signLegacy(target.toString(), req.method!, key, { created: Math.floor(Date.now() / 1000), agent: directoryOrigin })
      signed++
      const headers = { ...req.headers, ...signature }
      delete headers['proxy-connection']
      const out = httpRequest(target, { method: req.method, headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers)
        upstream.pipe(res)
      })
      out.on('error', () => res.writeHead(502).end())
      out.end(Buffer.concat(chunks))
    })
  })
  proxyUrl = `http://127.0.0.1:${await listen(proxy)}`
  server = await startServer({ TLS_PORT: 'off', AGENT_DIRECTORIES_ALLOW_PRIVATE: '1', NODE_EXTRA_CA_CERTS: ca.caFile, AGENT_DIRECTORIES: `Test Agent=${directoryOrigin}` })
  apiKey = await server.makeKey()
})

test.afterAll(async () => {
  await server?.stop()
  proxy?.close()
  directory?.close()
  ca?.uninstall()
})

test('headless Chromium behind a signing proxy: verified, named, judged a bot, and told so', async () => {
  // Chromium sends loopback requests past a proxy unless told otherwise.
  const browser = await launchTrustingChromium([`--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>'])
  try {
    const page = await browser.newPage()
    await page.goto(`${server.baseUrl}/tools/bot-detector`)
    await expect(page.locator('[data-page-agent]')).toHaveAttribute('data-page-agent', 'verified')
    await expect(page.locator('[data-page-agent]')).toContainText('This page load was signed by Test Agent')
    const id = await page.locator('body[data-task]').getAttribute('data-task', { timeout: 45_000 })
    await expect(page.locator('[data-picture="signed-agent"]')).toHaveAttribute('data-agent-state', 'verified')
    const task = (await (await fetch(`${server.baseUrl}/api/antibot/tasks/${id}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
      results: { verdict: string; frameworks: string[]; server: { agent: { state: string; agent: string; conformance: { form: string } } } }
    }
    expect(task.results.server.agent).toMatchObject({ state: 'verified', agent: 'Test Agent', conformance: { form: 'legacy' } })
    expect(task.results.frameworks).toContain('signed-agent')
    expect(task.results.verdict).toBe('bot')
    expect(signed).toBeGreaterThan(2)
  } finally {
    await browser.close()
  }
})
