// Components that betray the real platform, against the one claimed: the WebGL renderer (a
// CPU renderer; Direct3D, Metal and "Apple GPU" only on their OS, ./gpu.ts), the installed
// fonts (common/font-os.ts) and the audio sum (its cluster per engine, ./audio-sums.ts).
// The canvas-fingerprint and audio-fingerprint tools judge the same components in depth.

import { familyOfClaimedOs, inferOsFromFonts } from '../../common/font-os'
import type { BrowserFingerprintSignals } from '../../common/signals/browser-fingerprint'
import { engineClaim } from '../../common/user-agent'
import { audioAgainstEngines } from './audio-sums'
import { compareFontOs } from './claimed-os-fonts'
import { checkOn, na } from './define'
import { gpuOsOutcome, softwareOutcome } from './gpu'
import { pageClaim } from './navigator-claims'
import { pageEngine } from './page-engine'

const fitCheck = checkOn<BrowserFingerprintSignals>()

export const fpSoftwareRenderer = fitCheck({
  id: 'fp-software-renderer',
  name: 'WebGL runs on a hardware GPU',
  found: 'WebGL runs on a software renderer',
  source: 'client',
  why: 'SwiftShader and llvmpipe render on the CPU: normal for headless browsers, CI, containers and virtual machines, rare for people (a GPU blocklisted by the browser, a remote desktop). A warning here; bot-detector gives the bot verdict.',
  needs: ['webgl'],
  judge: ({ webgl }) => softwareOutcome(webgl.value),
})

export const fpGpuOs = fitCheck({
  id: 'fp-gpu-os',
  name: 'GPU strings fit the claimed OS',
  found: 'GPU strings do not fit the claimed OS',
  source: 'server',
  why: 'The WebGL renderer names the graphics API: Direct3D only on Windows, Metal and "OpenGL Engine" only on Apple systems, "Apple GPU" on every iOS browser. Compared with the OS in the User-Agent header the server received. WebKit masks its GPU as "Apple Inc."/"Apple GPU" on every platform, so on a JavaScriptCore engine (told by its error messages) those strings fit any OS.',
  ref: 'https://chromium.googlesource.com/angle/angle/+/main/src/libANGLE/renderer',
  needs: ['webgl'],
  uses: ['engine'],
  judge: ({ webgl, engine }, { server }) => gpuOsOutcome(webgl.value, engineClaim(server.userAgent).os, pageEngine(engine)),
})

export const fpFontsOs = fitCheck({
  id: 'fp-fonts-os',
  name: 'Fonts fit the claimed OS',
  found: 'fonts do not fit the claimed OS',
  source: 'server',
  why: 'Installed fonts betray the operating system (Segoe UI on Windows, Helvetica Neue on Apple, DejaVu on Linux). People do install other OSes’ fonts, so, as font-detection’s fonts-match-os, it fails only when the claimed OS has no two strong markers and another OS has at least two (a Windows or macOS User-Agent over a Linux box’s DejaVu and Liberation, as fingerprint spoofers on Linux servers show), and warns when the fonts lean to another OS with none of the claimed one’s.',
  needs: ['fonts'],
  judge: ({ fonts }, { server }) => {
    const claimed = engineClaim(server.userAgent).os
    const fam = familyOfClaimedOs(claimed)
    if (!fam) return na('the User-Agent names no known OS')
    const inf = inferOsFromFonts(fonts.value)
    const cmp = compareFontOs(inf, fam)
    return {
      verdict: cmp.verdict,
      observed: { inferred: inf.os, confidence: inf.confidence, claimed, markers: inf.os ? inf.evidence[inf.os].strong : [] },
      expected: `fonts of ${fam} (or no clear markers of another OS)`,
    }
  },
})

export const fpAudioEngine = fitCheck({
  id: 'fp-audio-engine',
  name: 'Audio sum fits the claimed engine',
  found: 'the audio sum does not fit the claimed engine',
  source: 'client',
  why: 'The FingerprintJS audio sum clusters by engine (Blink ≈ 124.04/124.08, Gecko ≈ 35.74, WebKit ≈ 35.11; table in src/checks/audio-sums.ts). A sum from another engine’s cluster than the one the User-Agent names means the User-Agent lies about the engine; one from another cluster than the engine the page runs on (told by its error messages) means the audio was replaced. An unknown sum only warns (new builds and CPUs add values).',
  ref: 'https://fingerprint.com/blog/audio-fingerprinting/',
  needs: ['audio'],
  uses: ['navigator', 'engine'],
  judge: ({ audio, navigator, engine }, { server }) => {
    if (audio.again !== undefined) return na('the sum is noised (see fp-stability)')
    const claimed = pageClaim(navigator, server).engine
    const fit = audioAgainstEngines(audio.value.sum, claimed, pageEngine(engine))
    return { verdict: fit.verdict, observed: { sum: audio.value.sum, reason: fit.reason }, expected: fit.expected }
  },
})
