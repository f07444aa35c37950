// The GPU strings only (what bot-detector reports and judges), taken from the shared WebGL
// reading. SwiftShader (Chromium's CPU renderer: headless, CI, VMs, blocklisted GPUs) and
// Mesa's llvmpipe/softpipe mean no GPU, which real desktops rarely lack:
// https://chromium.googlesource.com/chromium/src/+/main/docs/gpu/swiftshader.md

import { webglInfo } from './webgl'

export function webglGpu() {
  const w = webglInfo()
  return { vendor: w.vendor, renderer: w.renderer, unmaskedVendor: w.unmaskedVendor, unmaskedRenderer: w.unmaskedRenderer }
}
