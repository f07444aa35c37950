import { describe, expect, test } from 'bun:test'
import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { runChecks } from '../core/judge'
import { CHROME_UA, SWIFTSHADER, humanChrome, missing, ok, playwrightHeadless } from '../core/tools/bot-detector.fixture'
import { glRenderer, isSoftwareGl, webglRenderer } from './software-gl'

const server = { ip: '81.2.69.23', userAgent: CHROME_UA, headers: [], receivedAt: 0 }
const run = (s: Partial<BotDetectorSignals>) => runChecks([[webglRenderer, 16]], s as BotDetectorSignals, server, {}).checks[0]!
const gl = (renderer: string, unmaskedRenderer: string | null) => ({ vendor: 'x', renderer, unmaskedVendor: null, unmaskedRenderer })

const FIREFOX_GL = { vendor: 'Mozilla', renderer: 'NVIDIA GeForce GTX 980, or similar', unmaskedVendor: 'NVIDIA Corporation', unmaskedRenderer: 'NVIDIA GeForce GTX 980, or similar' }
const LLVMPIPE = { vendor: 'Mozilla', renderer: 'llvmpipe, or similar', unmaskedVendor: 'Mesa', unmaskedRenderer: 'llvmpipe (LLVM 15.0.6, 256 bits)' }

describe('webgl-renderer', () => {
  test("passes a person's Chrome on an NVIDIA GPU, naming the unmasked renderer", () => {
    expect(run({ webgl: humanChrome().webgl })).toMatchObject({
      verdict: 'pass',
      points: 0,
      observed: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)',
    })
  })

  test("passes a person's Firefox and its bucketed renderer name", () => {
    expect(run({ webgl: ok(FIREFOX_GL) })).toMatchObject({ verdict: 'pass', observed: 'NVIDIA GeForce GTX 980, or similar' })
  })

  test("headless Chromium's SwiftShader only warns (VMs and blocklisted GPUs use it too)", () => {
    expect(run({ webgl: playwrightHeadless().signals.webgl })).toMatchObject({ verdict: 'warn', points: 8, observed: SWIFTSHADER.unmaskedRenderer })
  })

  test("Firefox on Mesa's llvmpipe (a VM, CI) warns, never fails", () => {
    expect(run({ webgl: ok(LLVMPIPE) })).toMatchObject({ verdict: 'warn', observed: 'llvmpipe (LLVM 15.0.6, 256 bits)' })
  })

  test('is na with the reason when WebGL could not be read', () => {
    expect(run({ webgl: missing('unsupported', 'no WebGL context') })).toMatchObject({ verdict: 'na', points: 0, expected: 'unsupported: no WebGL context' })
    expect(run({}).expected).toBe('not collected')
  })
})

describe('glRenderer and isSoftwareGl', () => {
  test('the unmasked renderer where the browser gives one, else the masked one', () => {
    expect(glRenderer(gl('WebKit WebGL', 'ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11)'))).toBe('ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11)')
    // Firefox with resistFingerprinting, or WEBGL_debug_renderer_info blocked: no unmasked value.
    expect(glRenderer(gl('Mozilla', null))).toBe('Mozilla')
    expect(glRenderer(gl('WebKit WebGL', ''))).toBe('WebKit WebGL')
  })

  test('names the CPU renderers and nothing else', () => {
    for (const r of [SWIFTSHADER.unmaskedRenderer, 'Google SwiftShader', 'llvmpipe (LLVM 15.0.6, 256 bits)', 'softpipe', 'Microsoft Basic Render Driver', 'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)', 'Mesa OffScreen']) {
      expect(isSoftwareGl(r), r).toBe(true)
    }
    for (const r of ['ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002504) Direct3D11 vs_5_0 ps_5_0, D3D11)', 'Apple GPU', 'ANGLE (Apple, ANGLE Metal Renderer: Apple M2, Unspecified Version)', 'Mesa Intel(R) UHD Graphics 620 (KBL GT2)', 'Adreno (TM) 640', 'WebKit WebGL']) {
      expect(isSoftwareGl(r), r).toBe(false)
    }
  })
})
