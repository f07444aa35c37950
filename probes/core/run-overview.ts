// The run page's overview (probes/entries/run.ts): every tool's score as a bar, its headline,
// and the findings that cost the most points first, each linking to its row in the tool's
// report below. Read from the reports the server rendered into the sections (their data-score,
// headline and check rows), so that the page shows the server's judgement and nothing else;
// built with DOM calls and textContent only.

/** How many findings the overview lists; the rest are in each tool's report. */
const FINDINGS = 10

interface Finding {
  href: string
  name: string
  tool: string
  verdict: 'fail' | 'warn'
  points: number
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = text
  if (cls) e.className = cls
  return e
}

/** One tool's row of the overview, and where it goes in the worst-first order. */
interface Row {
  item: HTMLLIElement
  /** The score, or Infinity when the tool has none (not tested, not available, no report): those go last. */
  rank: number
}

export function showOverview(sections: readonly HTMLElement[]): void {
  const overview = document.getElementById('overview')
  const scores = overview?.querySelector('.run-scores')
  const findingsList = overview?.querySelector('.run-findings')
  if (!overview || !scores || !findingsList) return
  const findings: Finding[] = []
  const rows: Row[] = []
  // The page's order (the tools' order), whatever order they ran in.
  const ordered = [...sections].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
  for (const section of ordered) {
    const title = section.dataset.title ?? section.dataset.runTool ?? ''
    const report = section.querySelector<HTMLElement>('.report[data-score]')
    const item = el('li', undefined, 'run-score')
    item.dataset.tool = section.dataset.runTool ?? ''
    const link = el('a', title)
    link.href = `#${section.id}`
    item.append(link)
    let rank = Number.POSITIVE_INFINITY
    if (!report) {
      item.append(el('span', section.dataset.error ? 'not stored' : 'no report', 'muted run-score-text'))
    } else if (report.dataset.tested === 'false') {
      item.append(el('span', section.dataset.unavailable ? 'Not available on this instance' : 'Not tested', 'muted run-score-text run-score-untested'))
      const why = report.querySelector('.untested-reason')?.textContent
      if (why && !section.dataset.unavailable) item.append(el('span', why, 'muted run-score-text'))
    } else {
      const score = Number(report.dataset.score)
      rank = score
      const meter = el('meter')
      meter.min = 0
      meter.max = 100
      meter.low = 41
      meter.high = 80
      meter.optimum = 100
      meter.value = score
      meter.setAttribute('aria-label', `${title}: score ${score} of 100`)
      item.append(meter, el('span', String(score), `run-score-value ${score <= 40 ? 'v-fail' : score < 80 ? 'v-warn' : ''}`.trim()))
      item.classList.add(score <= 40 ? 'score-bad' : score < 80 ? 'score-doubt' : 'score-good')
      // The whole headline, wrapped: nothing hidden behind a hover.
      const headline = report.querySelector('.verdict strong')?.textContent
      if (headline) item.append(el('span', headline, 'muted run-score-text'))
    }
    rows.push({ item, rank })
    for (const row of section.querySelectorAll<HTMLElement>('tr.row-fail, tr.row-warn')) {
      const points = Number(row.querySelector('.c-verdict .muted')?.textContent?.replace('−', '') ?? 0) || 0
      findings.push({
        href: `#${row.id}`,
        // What was found ("navigator.webdriver is true"), not the check's passing condition.
        name: row.dataset.found ?? row.querySelector('.check-name')?.textContent ?? row.dataset.check ?? '',
        tool: title,
        verdict: row.classList.contains('row-fail') ? 'fail' : 'warn',
        points,
      })
    }
  }
  // Worst first: the lowest score is the first thing read, on a phone too; ties keep the tools' order.
  rows.sort((a, b) => a.rank - b.rank)
  const worst = rows[0]
  if (worst && worst.rank < 80) {
    worst.item.classList.add('run-score-worst')
    worst.item.querySelector('a')?.after(el('span', 'lowest', 'badge v-fail run-score-badge'))
  }
  for (const r of rows) scores.append(r.item)
  findings.sort((a, b) => b.points - a.points || (a.verdict === b.verdict ? 0 : a.verdict === 'fail' ? -1 : 1))
  if (!findings.length) findingsList.append(el('li', 'Nothing failed or warned in any tool.'))
  for (const f of findings.slice(0, FINDINGS)) {
    const item = el('li')
    item.append(el('span', f.verdict === 'fail' ? 'failed' : 'warning', `badge v-${f.verdict}`), ' ')
    const link = el('a', f.name)
    link.href = f.href
    item.append(link, el('span', ` · ${f.tool}${f.points ? ` · −${f.points}` : ''}`, 'muted'))
    findingsList.append(item)
  }
  if (findings.length > FINDINGS) findingsList.append(el('li', `…and ${findings.length - FINDINGS} more in the reports below.`, 'muted'))
  // What only the operator can set up is said once, here, instead of in every report.
  const note = overview.querySelector<HTMLElement>('[data-run-operator-note]')
  if (note && sections.some((s) => s.querySelector('[data-operator-note]') || s.dataset.unavailable)) note.hidden = false
  overview.hidden = false
}
