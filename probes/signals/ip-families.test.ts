import { describe, expect, test } from 'bun:test'
import { isLoopbackHost } from './ip-families'

describe('isLoopbackHost', () => {
  test.each(['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])('%s is loopback', (h) => {
    expect(isLoopbackHost(h)).toBe(true)
  })
  test.each(['example.com', 'localhost.example.com', '10.0.0.1', '128.0.0.1', '[::2]', '1270.0.0.1'])('%s is not', (h) => {
    expect(isLoopbackHost(h)).toBe(false)
  })
})
