import { describe, expect, test } from 'bun:test'
import { blinkVersionEvidence, classifyOutcome, engineFromMarkers, engineFromPermissions, PERMISSION_NAMES, type NameStatus } from './permission-engines'

const ENUM = (n: string) => ({ error: 'TypeError', message: `Failed to execute 'query' on 'Permissions': Failed to read the 'name' property from 'PermissionDescriptor': The provided value '${n}' is not a valid enum value of type PermissionName.` })

/** Statuses where every name outside `known` is unknown to the engine. */
const statuses = (known: Record<string, NameStatus>): Record<string, NameStatus> =>
  Object.fromEntries(PERMISSION_NAMES.map((n) => [n, known[n] ?? 'unknown']))

describe('classifyOutcome', () => {
  test('states, enum rejections and known-but-disabled names', () => {
    expect(classifyOutcome({ state: 'prompt' })).toBe('prompt')
    expect(classifyOutcome({ state: 'denied' })).toBe('denied')
    expect(classifyOutcome(ENUM('bluetooth'))).toBe('unknown')
    expect(classifyOutcome({ error: 'TypeError', message: "'foo' (value of 'name' member of PermissionDescriptor) is not a valid value for enumeration PermissionName." })).toBe('unknown')
    expect(classifyOutcome({ error: 'TypeError', message: "Failed to execute 'query' on 'Permissions': Web NFC is not enabled." })).toBe('unsupported')
    expect(classifyOutcome({ error: 'TypeError', message: 'Type error' })).toBe('unknown')
    expect(classifyOutcome({ error: 'NotSupportedError', message: "Push Permission without userVisibleOnly:true isn't supported yet." })).toBe('unsupported')
  })
})

describe('engineFromPermissions', () => {
  test('Chromium knows background-sync and payment-handler', () => {
    expect(engineFromPermissions(statuses({ geolocation: 'prompt', 'background-sync': 'granted', 'payment-handler': 'granted', 'persistent-storage': 'prompt' }))).toBe('blink')
  })
  test('Firefox knows persistent-storage and none of the Chromium or WebKit names', () => {
    expect(engineFromPermissions(statuses({ geolocation: 'prompt', notifications: 'prompt', push: 'prompt', 'persistent-storage': 'prompt', midi: 'prompt' }))).toBe('gecko')
  })
  test('Safari knows accelerometer (rejected as unsupported) but not persistent-storage', () => {
    expect(engineFromPermissions(statuses({ geolocation: 'prompt', camera: 'prompt', accelerometer: 'unsupported', 'speaker-selection': 'unsupported' }))).toBe('webkit')
  })
  test('too few known names is unknown', () => {
    expect(engineFromPermissions(statuses({ geolocation: 'prompt', notifications: 'prompt' }))).toBe('unknown')
  })
})

describe('blinkVersionEvidence', () => {
  const chrome120 = statuses({ 'periodic-background-sync': 'denied', 'screen-wake-lock': 'granted', 'idle-detection': 'prompt', 'local-fonts': 'prompt', 'window-management': 'prompt' })
  test('the newest known name bounds the version from below', () => {
    expect(blinkVersionEvidence(chrome120, 120)).toEqual({ atLeast: 111, atLeastBecause: 'window-management', missing: [] })
  })
  test('names missing from a version well after they shipped are reported, dropped names are not', () => {
    const chrome95 = statuses({ 'periodic-background-sync': 'denied', 'screen-wake-lock': 'granted', 'idle-detection': 'prompt' })
    expect(blinkVersionEvidence(chrome95, 95).missing).toEqual([])
    expect(blinkVersionEvidence(chrome95, 130).missing).toEqual(['local-fonts', 'window-management'])
  })
})

describe('engineFromMarkers', () => {
  test('one engine, none, or two', () => {
    expect(engineFromMarkers({ webkitRequestFileSystem: true, cssAppRegion: true })).toBe('blink')
    expect(engineFromMarkers({ mozInnerScreenX: true, cssMozAppearance: true })).toBe('gecko')
    expect(engineFromMarkers({ gestureEvent: true })).toBe('webkit')
    expect(engineFromMarkers({})).toBe('unknown')
    expect(engineFromMarkers({ cssAppRegion: true, mozInnerScreenX: true })).toBe('mixed')
  })
})
