import { expect, test } from 'bun:test'
import { polylinePoints, yOf } from './plot'

test('values are spread over the width; min is the bottom and max the top; out-of-range values are clamped', () => {
  const box = { width: 100, height: 50, min: -1, max: 1 }
  expect(polylinePoints([-1, 0, 1], box)).toBe('0,50 50,25 100,0')
  expect(yOf(3, box)).toBe(0)
  expect(yOf(-3, box)).toBe(50)
  expect(polylinePoints([], box)).toBe('')
  expect(polylinePoints([0.5], { ...box, min: 0, max: 0 })).toBe('0,25')
})
