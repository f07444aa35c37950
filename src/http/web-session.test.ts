import { describe, expect, test } from 'bun:test'
import { parseTrustedProxies } from '../core/ip'
import { csrfTokenFor } from '../core/csrf'
import { isHttpsRequest, readCheckedForm } from './web-session'

const peer = (address: string) => ({ requestIP: () => ({ address }) })
const proxies = parseTrustedProxies('10.0.0.0/8')
const forwarded = new Request('http://antibot.example/login', { headers: { 'x-forwarded-proto': 'https' } })

describe('isHttpsRequest', () => {
  test('an https URL is HTTPS', () => {
    expect(isHttpsRequest(null, new Request('https://antibot.example/'), [])).toBe(true)
  })

  test('believes X-Forwarded-Proto from a trusted proxy', () => {
    expect(isHttpsRequest(peer('10.1.2.3'), forwarded, proxies)).toBe(true)
  })

  test('ignores X-Forwarded-Proto from anyone else', () => {
    expect(isHttpsRequest(peer('203.0.113.9'), forwarded, proxies)).toBe(false)
    expect(isHttpsRequest(peer('10.1.2.3'), forwarded, [])).toBe(false)
    expect(isHttpsRequest(null, forwarded, proxies)).toBe(false)
  })

  test('takes the first of several X-Forwarded-Proto values', () => {
    const r = new Request('http://antibot.example/', { headers: { 'x-forwarded-proto': 'http, https' } })
    expect(isHttpsRequest(peer('10.1.2.3'), r, proxies)).toBe(false)
  })
})

describe('readCheckedForm', () => {
  const secret = 'Zm9ybS1zZWNyZXQtZm9yLXRoZS1jc3JmLXRlc3QtMTIz'
  const post = (body: string, headers: Record<string, string> = {}) =>
    new Request('http://localhost/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body })

  test('accepts the token as a form field', async () => {
    const r = await readCheckedForm(post(`email=a%40b&_csrf=${csrfTokenFor(secret)}`), secret, 'Cannot log in')
    expect(r.ok && r.form.get('email')).toBe('a@b')
  })

  test('accepts the token in the X-CSRF-Token header (htmx)', async () => {
    expect((await readCheckedForm(post('email=a', { 'X-CSRF-Token': csrfTokenFor(secret) }), secret, 'x')).ok).toBe(true)
  })

  test('refuses a missing or wrong token, or no cookie secret at all', async () => {
    expect(await readCheckedForm(post('email=a'), secret, 'x')).toEqual({ ok: false, code: 'bad_csrf' })
    expect(await readCheckedForm(post(`_csrf=${csrfTokenFor('other')}`), secret, 'x')).toEqual({ ok: false, code: 'bad_csrf' })
    expect(await readCheckedForm(post(`_csrf=${csrfTokenFor(secret)}`), undefined, 'x')).toEqual({ ok: false, code: 'bad_csrf' })
  })

  test('refuses a body that is not a form', async () => {
    const r = new Request('http://localhost/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    await expect(readCheckedForm(r, secret, 'Cannot log in')).rejects.toThrow("Cannot log in: send the form as application/x-www-form-urlencoded, got 'application/json'")
  })
})
