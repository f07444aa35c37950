import { expect, test } from 'bun:test'
import { stageClock, SUBMISSION_STAGES } from './stage-clock'

test('each lap is the time since the one before, in seconds, in the order lapped', () => {
  const ticks = [1000, 1002.5, 1010, 1010.25]
  const clock = stageClock(() => ticks.shift()!)
  clock.lap('read')
  clock.lap('judge')
  clock.lap('store')
  expect(clock.laps).toEqual([
    ['read', 0.0025],
    ['judge', 0.0075],
    ['store', 0.00025],
  ])
})

test('the stages are named once each', () => {
  expect(new Set(SUBMISSION_STAGES).size).toBe(SUBMISSION_STAGES.length)
})
