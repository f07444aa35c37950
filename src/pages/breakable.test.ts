import { expect, test } from 'bun:test'
import { Breakable, breakPoints } from './breakable'

test('a dotted name breaks after its dots, never inside a word', () => {
  expect(breakPoints('navigator.webdriver')).toEqual(['navigator.', 'webdriver'])
  expect(breakPoints('Object.getOwnPropertyDescriptor(Navigator.prototype)')).toEqual(['Object.', 'getOwnPropertyDescriptor(Navigator.', 'prototype)'])
})

test('short tokens and prose are left alone; pieces join back to the text', () => {
  expect(breakPoints('a real browser, as usual')).toEqual(['a real browser, as usual'])
  const ua = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
  expect(breakPoints(ua).join('')).toBe(ua)
  expect(breakPoints('')).toEqual([''])
})

test('a long run of letters and digits (a hash) gets a break point every 16 characters', () => {
  const hash = '0123456789abcdef'.repeat(4)
  expect(breakPoints(hash)).toEqual(['0123456789abcdef', '0123456789abcdef', '0123456789abcdef', '0123456789abcdef'])
  expect(breakPoints(`hash:${hash.slice(0, 40)}`)).toEqual(['hash:', '0123456789abcdef', '0123456789abcdef', '01234567'])
  expect(breakPoints('abcdefghijklmnopqrstuvwxyz')).toEqual(['abcdefghijklmnopqrstuvwxyz'])
})

test('the markup escapes every piece and puts <wbr> between them', () => {
  const html = String(Breakable({ text: '"><img src=x onerror=alert(1)>.a.b' }))
  expect(html).not.toContain('<img')
  expect(html).toContain('&lt;img')
  expect(html).toContain('<wbr>')
})
