import { describe, expect, test } from 'bun:test'
import { TOOL_IDS } from '../../common/tools'
import { verdictLabel } from '../pages/report'
import { scoreBand, SCORE_BANDS, taskVerdict, taskVerdicts } from './task-verdict'

describe('taskVerdict', () => {
  test('a task whose main evidence was missing is untested, whatever its score or verdict', () => {
    expect(taskVerdict('tls-fingerprint', { tested: false }, 100)).toBe('untested')
    expect(taskVerdict('bot-detector', { tested: false, verdict: 'human' }, 100)).toBe('untested')
  })

  test("bot-detector is counted under its own verdict; an unknown or missing one under its score's band, in its words", () => {
    for (const v of ['human', 'suspicious', 'bot'] as const) expect(taskVerdict('bot-detector', { tested: true, verdict: v }, 50)).toBe(v)
    expect(taskVerdict('bot-detector', { verdict: 'Human!' }, 90)).toBe('human')
    expect(taskVerdict('bot-detector', {}, 50)).toBe('suspicious')
    expect(taskVerdict('bot-detector', {}, 10)).toBe('bot')
  })

  test("other tools are counted under their score's band, never their free-text verdict sentence", () => {
    expect(taskVerdict('dns-leak', { tested: true, verdict: 'Your resolver at 203.0.113.9 answered' }, 100)).toBe('ordinary')
    expect(taskVerdict('ip-leak', { verdict: 'x' }, 41)).toBe('suspicious')
    expect(taskVerdict('ip-leak', {}, 40)).toBe('detected')
  })

  test("the bands have the bounds of the report's headline (verdictLabel)", () => {
    const labels = new Map<string, string>()
    for (let score = 0; score <= 100; score++) {
      const band = scoreBand(score)
      const label = verdictLabel(score)
      expect(labels.get(band) ?? label, `score ${score}`).toBe(label)
      labels.set(band, label)
    }
    expect([...labels.keys()].sort()).toEqual([...SCORE_BANDS].sort())
  })

  test('every verdict a tool can get is among those listed for it (the series made at start)', () => {
    for (const tool of TOOL_IDS) {
      const listed = taskVerdicts(tool)
      for (const [results, score] of [[{ tested: false }, 0], [{ verdict: 'bot' }, 0], [{ verdict: 'human' }, 90], [{}, 50], [{}, 10], [{}, 95]] as const) {
        expect(listed).toContain(taskVerdict(tool, results, score))
      }
    }
  })
})
