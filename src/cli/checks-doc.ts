// Writes docs/checks.md from the tools' check lists, and appends to src/core/expected-texts.json
// the checks' constant expectations it lacks (npm run docs:checks).
import { checksMarkdown, expectedTextsFile } from '../core/tools/check-list'
import EXPECTED_TEXTS from '../core/expected-texts.json'

await Bun.write(new URL('../../docs/checks.md', import.meta.url), checksMarkdown())
console.log('docs/checks.md written')
const texts = expectedTextsFile(EXPECTED_TEXTS as string[])
await Bun.write(new URL('../core/expected-texts.json', import.meta.url), `${JSON.stringify(texts, null, 2)}\n`)
console.log(`src/core/expected-texts.json: ${texts.length} texts (${texts.length - EXPECTED_TEXTS.length} added)`)
