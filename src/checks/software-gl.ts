// SwiftShader (Chromium's CPU renderer: headless, CI, VMs, blocklisted GPUs) and Mesa's
// llvmpipe/softpipe mean no GPU, which real desktops rarely lack.
// https://chromium.googlesource.com/chromium/src/+/main/docs/gpu/swiftshader.md

import type { BotDetectorSignals } from '../../common/signals/bot-detector'
import { checkOn, type SignalValues } from './define'

const SOFTWARE_GL = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render|Mesa OffScreen/i

/** The renderer WebGL names: unmasked where the browser gives it. */
export const glRenderer = (gl: SignalValues<BotDetectorSignals>['webgl']) => gl.unmaskedRenderer || gl.renderer

export const isSoftwareGl = (renderer: string) => SOFTWARE_GL.test(renderer)

export const webglRenderer = checkOn<BotDetectorSignals>()({
  id: 'webgl-renderer',
  name: 'WebGL renders on a GPU',
  found: 'WebGL renders on the CPU (software renderer)',
  source: 'client',
  why: 'SwiftShader, llvmpipe and other CPU renderers are what headless browsers and CI machines use. People in virtual machines, remote desktops or with a blocklisted GPU driver get them too, so this only warns.',
  ref: 'https://chromium.googlesource.com/chromium/src/+/main/docs/gpu/swiftshader.md',
  expected: 'a hardware GPU renderer (not SwiftShader, llvmpipe, softpipe)',
  needs: ['webgl'],
  judge: ({ webgl }) => {
    const renderer = glRenderer(webgl)
    return { verdict: isSoftwareGl(renderer) ? 'warn' : 'pass', observed: renderer }
  },
})
