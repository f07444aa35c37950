import { afterEach, describe, expect, test } from 'bun:test'
import { BODY_GRACE_MS, bodyDeadlineMs, bodyFailureStatus, bodyTooSlow, configureBodyGrace, MIN_BODY_RATE, readText } from './body'

/** A chunked body (no Content-Length) that sends `chunk` every `everyMs`, `count` times. */
function trickling(chunk: string, everyMs: number, count: number): Request {
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (sent++ >= count) return c.close()
      await new Promise((r) => setTimeout(r, everyMs))
      c.enqueue(new TextEncoder().encode(chunk))
    },
  })
  return new Request('http://x/api/antibot/tasks', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
}

describe('request bodies have a deadline (issue 45)', () => {
  afterEach(() => configureBodyGrace(BODY_GRACE_MS))

  test('the least rate counts only after the grace, and then on average', () => {
    expect(bodyTooSlow(0, BODY_GRACE_MS)).toBe(false)
    expect(bodyTooSlow(0, BODY_GRACE_MS + 1)).toBe(true)
    expect(bodyTooSlow(MIN_BODY_RATE * 10, BODY_GRACE_MS + 10_000)).toBe(false)
    expect(bodyTooSlow(MIN_BODY_RATE * 10 - 1, BODY_GRACE_MS + 10_000)).toBe(true)
    expect(bodyDeadlineMs(64 * 1024)).toBe(BODY_GRACE_MS + 64_000)
  })

  test('a body trickled a byte at a time is refused with 408 in the route’s words', async () => {
    configureBodyGrace(50)
    const r = await readText(trickling('a', 100, 50), 65536)
    expect(r).toEqual({ ok: false, failure: { code: 'too_slow', graceMs: 50 } })
    if (r.ok) return
    expect(bodyFailureStatus(r.failure, 'Cannot create task')).toEqual({ status: 408, error: `Cannot create task: the body came slower than ${MIN_BODY_RATE} bytes a second after the first 0.05 s; send it at once` })
  })

  test('a body that comes in time is read whole, whatever its chunks', async () => {
    const r = await readText(trickling('{"a":1}', 1, 3), 65536)
    expect(r).toEqual({ ok: true, value: '{"a":1}{"a":1}{"a":1}' })
  })
})
