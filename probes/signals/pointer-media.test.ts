import { expect, test } from 'bun:test'
import { pointerMedia } from './pointer-media'

const answering = (yes: string[]) => (q: string) => yes.includes(q)

test('a desktop with a mouse: fine pointer that hovers', () => {
  const m = pointerMedia(answering(['(pointer: fine)', '(any-pointer: fine)', '(hover: hover)', '(any-hover: hover)']))
  expect(m).toEqual({ pointer: 'fine', anyPointer: ['fine'], hover: 'hover', anyHover: ['hover'] })
})

test('headless Chromium: no pointer and no hover anywhere', () => {
  const m = pointerMedia(answering(['(pointer: none)', '(any-pointer: none)', '(hover: none)', '(any-hover: none)']))
  expect(m).toEqual({ pointer: 'none', anyPointer: ['none'], hover: 'none', anyHover: ['none'] })
})
