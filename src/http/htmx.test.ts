import { describe, expect, test } from 'bun:test'
import { isHtmx, redirect, retarget } from './htmx'

const plain = new Request('http://localhost/dashboard/keys', { method: 'POST' })
const htmx = new Request('http://localhost/dashboard/keys', { method: 'POST', headers: { 'HX-Request': 'true' } })

describe('isHtmx', () => {
  test('is true for requests htmx makes', () => {
    expect(isHtmx(htmx)).toBe(true)
    expect(isHtmx(plain)).toBe(false)
  })

  test('a history restore wants the whole page', () => {
    expect(isHtmx(new Request('http://localhost/dashboard', { headers: { 'HX-Request': 'true', 'HX-History-Restore-Request': 'true' } }))).toBe(false)
  })
})

describe('redirect', () => {
  test('answers a plain form post with 303 See Other', () => {
    const res = redirect(plain, '/dashboard')
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/dashboard')
    expect(res.headers.get('hx-location')).toBeNull()
  })

  test('answers htmx with HX-Location and no Location, so the browser does not follow it itself', () => {
    const res = redirect(htmx, '/login')
    expect(res.status).toBe(200)
    expect(res.headers.get('hx-location')).toBe('/login')
    expect(res.headers.get('location')).toBeNull()
  })

  test('says that the answer depends on HX-Request, and keeps other headers', () => {
    const res = redirect(plain, '/dashboard', [['set-cookie', 'a=1'], ['set-cookie', 'b=2']])
    expect(res.headers.get('vary')).toBe('HX-Request')
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2'])
  })
})

describe('retarget', () => {
  test('names the target and the swap', () => {
    expect(retarget('#alert')).toEqual({ 'HX-Retarget': '#alert', 'HX-Reswap': 'innerHTML' })
  })
})
