// Bun runs JavaScriptCore: its error messages are a known answer for Safari's engine. (Bun's
// JavaScriptCore prints native functions on one line, "function eval() { [native code] }",
// where Safari's prints them on three, so eval's length here is V8's 33, not Safari's 37.)
import { expect, test } from 'bun:test'
import { jsEngineOf } from '../../common/engine-errors'
import { jsEngine } from './js-engine'

test('JavaScriptCore is recognised from its error messages', () => {
  const e = jsEngine()
  expect(e.nullError).toContain('is not an object')
  expect(jsEngineOf(e)).toBe('webkit')
})
