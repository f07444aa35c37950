// The run page (/run, src/pages/run.tsx): every tool's plan, one after the other, each under the
// nonce the server issued for that tool, each stored as its own task exactly as its own page
// stores it. One after the other, not together: the tools time things (animation frames, the
// audio render, round trips, the clock), and one tool's work would be another's noise; and
// each tool's sources read the page's nonce (<body data-nonce>) as they start, which is the
// running tool's. bot-detector goes first and its plan is made before anything else runs: it
// watches the DOM lookups and the pointer from the page's start (probes/plans/bot-detector.ts).
// When every task is stored, <body data-run> holds the run's id; then the overview and each
// tool's report are shown.

import type { ToolId } from '../../common/tools'
import { runPlan, showReport, type Slot, type ToolPlan } from '../core/runner'
import { audioFingerprintPlan } from '../plans/audio-fingerprint'
import { botDetectorPlan } from '../plans/bot-detector'
import { browserFingerprintPlan } from '../plans/browser-fingerprint'
import { canvasFingerprintPlan } from '../plans/canvas-fingerprint'
import { dnsLeakPlan } from '../plans/dns-leak'
import { fontDetectionPlan } from '../plans/font-detection'
import { httpHeadersPlan } from '../plans/http-headers'
import { ipLeakPlan } from '../plans/ip-leak'
import { permissionsApiPlan } from '../plans/permissions-api'
import { screenDisplayPlan } from '../plans/screen-display'
import { timezoneGeoPlan } from '../plans/timezone-geo'
import { tlsFingerprintPlan } from '../plans/tls-fingerprint'
import { vpnDetectorPlan } from '../plans/vpn-detector'
import { webrtcLeakPlan } from '../plans/webrtc-leak'
import { showOverview } from '../core/run-overview'
import { openHashTarget, watchHashTargets } from '../core/open-target'

const botDetector = botDetectorPlan()

const PLANS: Record<ToolId, () => ToolPlan> = {
  'bot-detector': () => botDetector,
  'ip-leak': ipLeakPlan,
  'webrtc-leak': webrtcLeakPlan,
  'http-headers': httpHeadersPlan,
  'browser-fingerprint': browserFingerprintPlan,
  'canvas-fingerprint': canvasFingerprintPlan,
  'font-detection': fontDetectionPlan,
  'audio-fingerprint': audioFingerprintPlan,
  'tls-fingerprint': tlsFingerprintPlan,
  'timezone-geo': timezoneGeoPlan,
  'screen-display': screenDisplayPlan,
  'permissions-api': permissionsApiPlan,
  'dns-leak': dnsLeakPlan,
  'vpn-detector': vpnDetectorPlan,
}

function pageStatus(text: string): void {
  const el = document.getElementById('status')
  if (el) el.textContent = text
}

/** One tool's section as the runner's slot: its nonce, its status line, data-task, its report. */
function sectionSlot(section: HTMLElement): Slot {
  const status = section.querySelector('.run-tool-status')
  return {
    nonce: section.dataset.nonce,
    status(text) {
      if (status) status.textContent = text
    },
    stored(taskId) {
      section.dataset.task = taskId
    },
    report(html) {
      const target = section.querySelector('.run-tool-report')
      if (!target) return
      // The report is HTML the server rendered with every value escaped. Its ids and label are
      // made the section's own: fourteen reports on one page must not repeat them.
      target.innerHTML = html
      const tool = section.dataset.runTool ?? ''
      for (const el of target.querySelectorAll<HTMLElement>('[id]')) el.id = `${tool}--${el.id}`
      // References to those ids (a picture's aria-labelledby) follow them.
      for (const el of target.querySelectorAll<Element>('[aria-labelledby]')) el.setAttribute('aria-labelledby', el.getAttribute('aria-labelledby')!.split(/\s+/).map((id) => `${tool}--${id}`).join(' '))
      // Its links to its own rows ("what was found") follow them.
      for (const a of target.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')) a.setAttribute('href', `#${tool}--${a.getAttribute('href')!.slice(1)}`)
      for (const el of target.querySelectorAll<HTMLElement>('[aria-label="Results"]')) el.setAttribute('aria-label', `${section.dataset.title ?? tool} results`)
    },
    failed() {
      section.dataset.error = 'true'
    },
  }
}

async function run(): Promise<void> {
  const runId = document.body.dataset.runId
  const sections = [...document.querySelectorAll<HTMLElement>('section[data-run-tool]')]
  // bot-detector first (see above), then the page's order.
  sections.sort((a, b) => Number(b.dataset.runTool === 'bot-detector') - Number(a.dataset.runTool === 'bot-detector'))
  const stored: Array<{ section: HTMLElement; tool: ToolId; body: string }> = []
  for (const [i, section] of sections.entries()) {
    const tool = section.dataset.runTool as ToolId
    pageStatus(`Running ${section.dataset.title ?? tool} (${i + 1} of ${sections.length})…`)
    // The tool's sources read the nonce, the TURN password and the listeners from <body>.
    document.body.dataset.nonce = section.dataset.nonce ?? ''
    document.body.dataset.turnSecret = section.dataset.turnSecret ?? ''
    const done = await runPlan(PLANS[tool](), sectionSlot(section), { report: 'later' })
    if (done) stored.push({ section, tool, body: done.body })
  }
  delete document.body.dataset.nonce
  delete document.body.dataset.turnSecret
  if (stored.length === sections.length && runId) {
    document.body.dataset.run = runId
    pageStatus(`All ${stored.length} tests ran and were stored. Judging them…`)
  } else {
    document.body.dataset.error = 'true'
    pageStatus(`${sections.length - stored.length} of ${sections.length} tools could not store their task (each says why below); the run is incomplete.`)
  }
  // The reports, three at a time: each is the server judging the stored run again.
  const queue = [...stored]
  await Promise.all(
    [0, 1, 2].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await showReport(next.tool, next.body, sectionSlot(next.section))
      }
    }),
  )
  showOverview(sections)
  openHashTarget()
  // Said to a person: the run's id is in <body data-run> and the developers' note.
  if (document.body.dataset.run) pageStatus(`Done: all ${stored.length} tests ran. The overview comes first, then each test's report.`)
}

watchHashTargets()
void run()
