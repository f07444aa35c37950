import { describe, expect, test } from 'bun:test'
import { gpuFitsOs, implausibleParams, softwareRenderer } from './gpu'

const D3D = 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)'
const METAL = 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)'
const MAC_GL = 'ANGLE (ATI Technologies Inc., AMD Radeon Pro 560 OpenGL Engine, OpenGL 4.1)'
const MESA = 'ANGLE (Intel, Mesa Intel(R) UHD Graphics 620 (KBL GT2), OpenGL 4.6)'
const ADRENO = 'ANGLE (Qualcomm, Adreno (TM) 640, OpenGL ES 3.2)'
const SNAPDRAGON_WIN = 'ANGLE (Qualcomm, Qualcomm(R) Adreno(TM) X1-85 GPU Direct3D11 vs_5_0 ps_5_0, D3D11)'

describe('softwareRenderer', () => {
  test('names SwiftShader, llvmpipe and the Windows basic driver', () => {
    expect(softwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toContain('SwiftShader')
    expect(softwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toContain('llvmpipe')
    expect(softwareRenderer('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)')).toContain('Basic Render')
  })
  test('gives null for hardware GPUs', () => {
    for (const r of [D3D, METAL, MESA, ADRENO, 'Apple GPU']) expect(softwareRenderer(r)).toBeNull()
  })
})

describe('gpuFitsOs', () => {
  test('accepts the usual renderer of each OS', () => {
    expect(gpuFitsOs('Google Inc. (NVIDIA)', D3D, 'windows').verdict).toBe('pass')
    expect(gpuFitsOs('Google Inc. (Qualcomm)', SNAPDRAGON_WIN, 'windows').verdict).toBe('pass')
    expect(gpuFitsOs('Google Inc. (Apple)', METAL, 'mac').verdict).toBe('pass')
    expect(gpuFitsOs('Google Inc. (ATI Technologies Inc.)', MAC_GL, 'mac').verdict).toBe('pass')
    expect(gpuFitsOs('Google Inc. (Intel)', MESA, 'linux').verdict).toBe('pass')
    expect(gpuFitsOs('Google Inc. (Qualcomm)', ADRENO, 'android').verdict).toBe('pass')
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'ios').verdict).toBe('pass')
  })
  test('fails Direct3D off Windows and Apple renderers off Apple systems', () => {
    expect(gpuFitsOs('Google Inc. (NVIDIA)', D3D, 'mac').verdict).toBe('fail')
    expect(gpuFitsOs('Google Inc. (NVIDIA)', D3D, 'linux').verdict).toBe('fail')
    expect(gpuFitsOs('Google Inc. (Apple)', METAL, 'windows').verdict).toBe('fail')
    expect(gpuFitsOs('Google Inc. (ATI Technologies Inc.)', MAC_GL, 'android').verdict).toBe('fail')
    expect(gpuFitsOs('Google Inc. (Qualcomm)', ADRENO, 'ios').verdict).toBe('fail')
    expect(gpuFitsOs('Google Inc. (Qualcomm)', ADRENO, 'mac').verdict).toBe('fail')
  })
  test('only warns on rare but real combinations', () => {
    expect(gpuFitsOs('Google Inc. (Intel)', MESA, 'windows').verdict).toBe('warn')
    expect(gpuFitsOs('Google Inc. (Qualcomm)', ADRENO, 'windows').verdict).toBe('warn')
  })
  test("WebKit's masked \"Apple GPU\" fits every OS on JavaScriptCore, and only there", () => {
    // GNOME Web on Linux reports these; so do WebKit's Windows ports.
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'linux', 'webkit')).toMatchObject({ verdict: 'pass', reason: 'WebKit reports its masked "Apple GPU" on every platform' })
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'windows', 'webkit').verdict).toBe('pass')
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'mac', 'webkit').verdict).toBe('pass')
    // A V8 or unknown engine wearing those strings off an Apple OS is still a lie…
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'linux', 'blink').verdict).toBe('fail')
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'windows').verdict).toBe('fail')
    // …and so is a real Metal renderer on WebKit claiming Linux, or Apple GPU claiming Android.
    expect(gpuFitsOs('Apple Inc.', 'Apple M2', 'linux', 'webkit').verdict).toBe('fail')
    expect(gpuFitsOs('Apple Inc.', 'Apple GPU', 'android', 'webkit').verdict).toBe('fail')
  })
  test('lets software renderers and resistFingerprinting through', () => {
    expect(gpuFitsOs('Google Inc. (Google)', 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)', 'windows').verdict).toBe('pass')
    expect(gpuFitsOs('Mozilla', 'Mozilla', 'mac').verdict).toBe('pass')
  })
})

describe('implausibleParams', () => {
  const real = { MAX_TEXTURE_SIZE: 16384, MAX_RENDERBUFFER_SIZE: 16384, MAX_VIEWPORT_DIMS: [32767, 32767], MAX_VERTEX_ATTRIBS: 16, MAX_TEXTURE_IMAGE_UNITS: 16, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 32, ALIASED_POINT_SIZE_RANGE: [1, 1024] }
  test('accepts a real driver’s limits, and missing ones', () => {
    expect(implausibleParams(real)).toEqual([])
    expect(implausibleParams({ MAX_TEXTURE_SIZE: null })).toEqual([])
  })
  test('lists what no driver reports', () => {
    const bad = implausibleParams({ ...real, MAX_TEXTURE_SIZE: 12000, MAX_VERTEX_ATTRIBS: 4, MAX_COMBINED_TEXTURE_IMAGE_UNITS: 8, ALIASED_POINT_SIZE_RANGE: [2, 64] })
    expect(bad).toHaveLength(4)
    expect(bad[0]).toContain('MAX_TEXTURE_SIZE 12000')
  })
})
