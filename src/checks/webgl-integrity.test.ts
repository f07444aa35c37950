import { describe, expect, test } from 'bun:test'
import { angleVendors } from './webgl-integrity'

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
