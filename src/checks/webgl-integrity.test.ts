import { describe, expect, test } from 'bun:test'
import type { CanvasFingerprintSignals } from '../../common/signals/canvas-fingerprint'
import { runChecks, type WeightedCheck } from '../core/judge'
import { FIREFOX_PERSON, FIREFOX_RFP, ok, server } from '../core/tools/canvas-fingerprint.fixture'
import { angleVendors, webglStable } from './webgl-integrity'

const run = (def: WeightedCheck<CanvasFingerprintSignals>[0], s: Partial<CanvasFingerprintSignals>) => runChecks([[def, 10]], s as CanvasFingerprintSignals, server('x'), {}).checks[0]!

const D3D = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)'

describe('angleVendors', () => {
  test('reads the GPU vendor from Chromium’s vendor and ANGLE renderer strings', () => {
    expect(angleVendors('Google Inc. (NVIDIA)', D3D)).toEqual({ vendor: 'NVIDIA', renderer: 'NVIDIA' })
    expect(angleVendors('Google Inc. (Apple)', 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)')).toEqual({ vendor: 'Apple', renderer: 'Apple' })
  })
  test('gives null for strings in another form (Safari, Firefox)', () => {
    expect(angleVendors('Apple Inc.', 'Apple GPU')).toEqual({ vendor: null, renderer: null })
  })
})

describe('webgl-stable', () => {
  test('passes Firefox ESR 153’s llvmpipe, which reads the same bytes twice', () => {
    expect(run(webglStable, FIREFOX_PERSON)).toMatchObject({ verdict: 'pass', observed: 'both drawings b057a51f6b6e6d9e' })
  })
  test('with resistFingerprinting the noise was reported by canvas-stable: not applicable here', () => {
    expect(run(webglStable, FIREFOX_RFP)).toMatchObject({ verdict: 'na', expected: 'anti-fingerprinting detected, see canvas-stable' })
  })
  test('WebGL noise with a clean 2D canvas is the warning itself', () => {
    if (!FIREFOX_RFP.webgl.ok) throw new Error('fixture')
    const s = { ...FIREFOX_PERSON, webgl: ok(FIREFOX_RFP.webgl.value) }
    expect(run(webglStable, s)).toMatchObject({ verdict: 'warn', observed: 'anti-fingerprinting detected: readPixels differs between two drawings (first 62875dc2d01c056e)' })
  })
})
