// Dashboard helpers that need JavaScript; the page works without them. The copy button of a
// newly shown key: hidden until this script runs (see `.js` in app.css), then it copies the
// key's text. navigator.clipboard needs a secure context (HTTPS or localhost), so the old
// select-and-execCommand path remains the fallback.
// https://developer.mozilla.org/en-US/docs/Web/API/Clipboard/writeText
document.documentElement.classList.add('js')

document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null
  if (!button) return
  const source = document.getElementById(button.getAttribute('data-copy'))
  if (!source) return
  const text = source.textContent.trim()
  let copied = false
  try {
    await navigator.clipboard.writeText(text)
    copied = true
  } catch {
    const range = document.createRange()
    range.selectNodeContents(source)
    const selection = window.getSelection()
    selection.removeAllRanges()
    selection.addRange(range)
    copied = document.execCommand('copy')
  }
  const label = button.dataset.label || button.textContent
  button.dataset.label = label
  button.textContent = copied ? 'Copied' : 'Select and copy it by hand'
  setTimeout(() => (button.textContent = label), 2000)
})
