// Runs in Bun (JavaScriptCore): the lie tests need no DOM, only built-in functions, so they
// can be checked against real natives, plain replacements and Proxies here.
import { describe, expect, test } from 'bun:test'
import { memberLies } from './api-lies'
import { isNativeFunction } from './native'

describe('isNativeFunction', () => {
  test('recognises built-in methods and getters by name', () => {
    expect(isNativeFunction(Date.prototype.getTimezoneOffset, 'getTimezoneOffset')).toBe(true)
    expect(isNativeFunction(Object.getOwnPropertyDescriptor(Map.prototype, 'size')!.get, 'size')).toBe(true)
    expect(isNativeFunction(Function.prototype.toString, 'toString')).toBe(true)
  })

  test('rejects JavaScript functions, other names and non-functions', () => {
    expect(isNativeFunction(() => 1)).toBe(false)
    expect(isNativeFunction(function getTimezoneOffset() { return 0 }, 'getTimezoneOffset')).toBe(false)
    expect(isNativeFunction(Date.prototype.getTime, 'getTimezoneOffset')).toBe(false)
    expect(isNativeFunction('function x() { [native code] }')).toBe(false)
  })
})

describe('memberLies', () => {
  test('a native getter and a native method pass every test', () => {
    expect(memberLies(Map.prototype, 'size', true)).toEqual([])
    expect(memberLies(Date.prototype, 'getTimezoneOffset', true)).toEqual([])
    expect(memberLies(Function.prototype, 'toString', true)).toEqual([])
  })

  test('a missing member is not tested', () => {
    expect(memberLies(Date.prototype, 'noSuchMember', true)).toBeNull()
  })

  test('a getter replaced by a constant getter fails toString and the foreign-receiver test', () => {
    class Probe {
      get flag() {
        return true
      }
    }
    Object.defineProperty(Probe.prototype, 'flag', { get: Object.getOwnPropertyDescriptor({ get flag() { return false } }, 'flag')!.get, configurable: true })
    expect(memberLies(Probe.prototype, 'flag', true)).toEqual(['toString', 'illegal'])
  })

  test('a function replacement is caught by toString, prototype, own keys and new', () => {
    const owner = { getTimezoneOffset: function getTimezoneOffset() { return 0 } }
    expect(memberLies(owner, 'getTimezoneOffset', false)).toEqual(['toString', 'prototype', 'own-keys', 'new'])
  })

  test('a data property where a getter belongs is reported as a value', () => {
    expect(memberLies({ webdriver: false }, 'webdriver', false)).toEqual(['value'])
  })

  test('a Proxy around the native function is caught by the prototype-cycle test, and restored', () => {
    const native = Date.prototype.getTimezoneOffset
    const proxy = new Proxy(native, { apply: (t, self, args) => Reflect.apply(t, self, args) })
    const owner = { getTimezoneOffset: proxy }
    const lies = memberLies(owner, 'getTimezoneOffset', false)!
    expect(lies).toContain('proxy')
    expect(Object.getPrototypeOf(proxy)).toBe(Function.prototype)
    expect(Object.getPrototypeOf(native)).toBe(Function.prototype)
    expect(new Date(0).getTimezoneOffset()).toBe(proxy.call(new Date(0)))
  })

  test('a Proxy that also fakes its toString is still a proxy', () => {
    const nativeToString = Function.prototype.toString
    const fakeToString = new Proxy(nativeToString, {
      apply: (t, self, args) => (self === fakeToString ? 'function toString() { [native code] }' : Reflect.apply(t, self, args)),
    })
    Function.prototype.toString = fakeToString
    try {
      expect(memberLies(Function.prototype, 'toString', true)).toEqual(['proxy'])
    } finally {
      Function.prototype.toString = nativeToString
    }
  })
})
