import { expect, test } from 'bun:test'
import { escapeHtml } from '@kitajs/html'
import { filledOnce, ORIGIN_SLOT, renderedOnce } from './rendered'

const text = (b: Uint8Array) => new TextDecoder().decode(b)

test('renders at the first request only, however many ask at once, and keeps the same bytes', async () => {
  let renders = 0
  const page = renderedOnce(async () => `<p>${++renders}</p>`)
  const all = await Promise.all([page.bytes(), page.bytes(), page.bytes()])
  expect(renders).toBe(1)
  expect(page.renders).toBe(1)
  expect(all[1]).toBe(all[0]!)
  expect(await page.bytes()).toBe(all[0]!)
  expect(await text(all[0]!)).toBe('<p>1</p>')
})

test('a failed render is not kept: the next request renders again', async () => {
  let calls = 0
  const page = renderedOnce(() => {
    calls++
    if (calls === 1) throw new Error('Cannot render: not ready')
    return 'ok'
  })
  await expect(page.bytes()).rejects.toThrow('not ready')
  expect(await text(await page.bytes())).toBe('ok')
  expect(await text(await page.bytes())).toBe('ok')
  expect(calls).toBe(2)
})

test('a page with the origin slot renders once and gets each origin quoted for the shell and escaped for HTML, as a render for it would', async () => {
  // What the docs page does with its origin: a single-quoted shell word, HTML-escaped.
  const render = (origin: string) => `<pre>curl ${escapeHtml(`'${origin.replace(/'/g, `'\\''`)}/api'`)} and ${escapeHtml(`'${origin.replace(/'/g, `'\\''`)}/x'`)}</pre>`
  let renders = 0
  const page = filledOnce(() => {
    renders++
    return render(ORIGIN_SLOT)
  })
  for (const origin of ['http://localhost', "http://a'b<c>&d", 'https://[2001:db8::1]:8443', 'http://localhost']) expect(await text(await page.body(origin))).toBe(render(origin))
  // The latest origin's page is kept: the same bytes again.
  expect(await page.body('http://localhost')).toBe(await page.body('http://localhost'))
  expect(renders).toBe(1)
  expect(page.renders).toBe(1)
})
