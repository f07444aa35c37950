// Writes docs/checks.md from the tools' check lists, and appends to src/core/stored-texts.json
// the checks' constant expectations and the fixed consistency sentences it lacks
// (npm run docs:checks). The file only grows: stored tasks name its texts by codes.
import STORED_TEXTS from '../core/stored-texts.json'
import { checksMarkdown, storedTextsFile } from '../core/tools/check-list'

await Bun.write(new URL('../../docs/checks.md', import.meta.url), checksMarkdown())
console.log('docs/checks.md written')
const texts = storedTextsFile(STORED_TEXTS)
await Bun.write(new URL('../core/stored-texts.json', import.meta.url), `${JSON.stringify(texts, null, 2)}\n`)
console.log(`src/core/stored-texts.json: ${texts.expected.length} expectations (${texts.expected.length - STORED_TEXTS.expected.length} added), ${texts.details.length} consistency sentences (${texts.details.length - STORED_TEXTS.details.length} added)`)
