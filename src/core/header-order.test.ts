import { describe, expect, test } from 'bun:test'
import { checkOrder, looksSorted } from './header-order'

// Header names of a fetch() POST as each browser writes them (HTTP/1.1).
const CHROME = ['host', 'connection', 'content-length', 'sec-ch-ua-platform', 'user-agent', 'sec-ch-ua', 'content-type', 'sec-ch-ua-mobile', 'accept', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'referer', 'accept-encoding', 'accept-language']
const FIREFOX = ['host', 'user-agent', 'accept', 'accept-language', 'accept-encoding', 'referer', 'content-type', 'content-length', 'origin', 'connection', 'sec-fetch-dest', 'sec-fetch-mode', 'sec-fetch-site', 'priority']
const REQUESTS = ['host', 'user-agent', 'accept-encoding', 'accept', 'connection', 'content-length', 'content-type']

describe('looksSorted', () => {
  test('recognises the alphabetical order Bun iterates in', () => {
    expect(looksSorted([...CHROME].sort())).toBe(true)
  })
  test('does not mistake a browser order for a sorted one', () => {
    expect(looksSorted(CHROME)).toBe(false)
    expect(looksSorted(FIREFOX)).toBe(false)
  })
  test('says nothing about very short lists', () => {
    expect(looksSorted(['accept', 'host'])).toBe(false)
  })
})

describe('checkOrder', () => {
  test("passes each browser's own order", () => {
    expect(checkOrder(CHROME, 'chromium')).toEqual({ applied: 5, broken: [], layout: 'usual' })
    expect(checkOrder(FIREFOX, 'firefox')).toEqual({ applied: 6, broken: [], layout: 'usual' })
  })
  test('tells Chrome and Firefox orders apart', () => {
    expect(checkOrder(FIREFOX, 'chromium').broken.length).toBeGreaterThan(0)
    expect(checkOrder(CHROME, 'firefox').broken.length).toBeGreaterThan(0)
  })
  test('catches a library order under a Firefox claim', () => {
    expect(checkOrder(REQUESTS, 'firefox').broken).toEqual(['accept after accept-encoding'])
  })
  test('applies only rules whose headers are present', () => {
    expect(checkOrder(['host', 'user-agent'], 'chromium')).toEqual({ applied: 0, broken: [], layout: 'usual' })
  })
})
