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

export function showOverview(sections: readonly HTMLElement[]): void {
  const overview = document.getElementById('overview')
  const scores = overview?.querySelector('.run-scores')
  const findingsList = overview?.querySelector('.run-findings')
  if (!overview || !scores || !findingsList) return
  const findings: Finding[] = []
  // The page's order (the tools' order), whatever order they ran in.
  const ordered = [...sections].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))
  for (const section of ordered) {
    const title = section.dataset.title ?? section.dataset.runTool ?? ''
    const report = section.querySelector<HTMLElement>('.report[data-score]')
    const item = el('li', undefined, 'run-score')
    const link = el('a', title)
    link.href = `#${section.id}`
    item.append(link)
    if (!report) {
      item.append(el('span', section.dataset.error ? 'not stored' : 'no report', 'muted run-score-text'))
    } else if (report.dataset.tested === 'false') {
      item.append(el('span', 'Not tested', 'muted run-score-text'))
    } else {
      const score = Number(report.dataset.score)
      const meter = el('meter')
      meter.min = 0
      meter.max = 100
      meter.low = 41
      meter.high = 80
      meter.optimum = 100
      meter.value = score
      meter.setAttribute('aria-label', `${title}: score ${score} of 100`)
      item.append(meter, el('span', String(score), 'run-score-value'))
      const headline = report.querySelector('.verdict strong')?.textContent
      if (headline) {
        const text = el('span', headline, 'muted run-score-text')
        text.title = headline
        item.append(text)
      }
    }
    scores.append(item)
    for (const row of section.querySelectorAll<HTMLElement>('tr.row-fail, tr.row-warn')) {
      const points = Number(row.querySelector('.c-verdict .muted')?.textContent?.replace('−', '') ?? 0) || 0
      findings.push({
        href: `#${row.id}`,
        name: row.querySelector('.check-name')?.textContent ?? row.dataset.check ?? '',
        tool: title,
        verdict: row.classList.contains('row-fail') ? 'fail' : 'warn',
        points,
      })
    }
  }
  findings.sort((a, b) => b.points - a.points || (a.verdict === b.verdict ? 0 : a.verdict === 'fail' ? -1 : 1))
  if (!findings.length) findingsList.append(el('li', 'Nothing failed or warned in any tool.'))
  for (const f of findings.slice(0, FINDINGS)) {
    const item = el('li')
    item.append(el('span', f.verdict, `badge v-${f.verdict}`), ' ')
    const link = el('a', f.name)
    link.href = f.href
    item.append(link, el('span', ` · ${f.tool}${f.points ? ` · −${f.points}` : ''}`, 'muted'))
    findingsList.append(item)
  }
  if (findings.length > FINDINGS) findingsList.append(el('li', `…and ${findings.length - FINDINGS} more in the reports below.`, 'muted'))
  overview.hidden = false
}
