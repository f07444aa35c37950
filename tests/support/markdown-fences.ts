// Fenced code blocks in Markdown (CommonMark): a block opens with ``` or ~~~ (three or more,
// at most three spaces in) and closes with a bare fence of the same character, at least as long.
// A fence with an info string (```sh) cannot close a block: met inside one, it almost always
// means an earlier block was left open, and the page renders as code from there on.

/** Where a Markdown text's fenced code blocks go wrong: a fence with an info string inside a block, or a block never closed. */
export function fenceProblems(markdown: string): string[] {
  const problems: string[] = []
  let open: { fence: string; line: number } | null = null
  const lines = markdown.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]!)
    if (!m) continue
    const fence = m[1]!
    if (!open) open = { fence, line: i + 1 }
    else if (fence[0] === open.fence[0] && fence.length >= open.fence.length) {
      if (m[2]!.trim() === '') open = null
      else problems.push(`line ${i + 1}: "${lines[i]!.trim()}" inside the code block opened on line ${open.line} (a fence left open before it?)`)
    }
  }
  if (open) problems.push(`the code block opened on line ${open.line} is never closed`)
  return problems
}
