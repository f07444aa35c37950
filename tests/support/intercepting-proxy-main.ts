// The TLS-inspecting proxy of the matrices (issue 56), as a program: what corporate gateways
// and antivirus HTTPS scanning put between a person's browser and every site. Run by Node (the
// stack the service then sees is Node's OpenSSL, as issue 56 found it), built from this file by
// ./intercepting-proxy.ts, which starts it:
//   node <built>.mjs <state dir>      prints "listening <port>" once it listens on 127.0.0.1
// - CONNECT host:port: the proxy opens its own TLS connection to host:port (Node's defaults,
//   ALPN h2 then http/1.1, SNI when the host is a name; the upstream certificate is not checked:
//   what is tested is what the service sees), then answers 200 and terminates the browser's TLS
//   with a leaf certificate for that host signed by its CA (made on first use, kept per host),
//   offering the browser only the protocol the upstream chose; the decrypted bytes are relayed
//   as they are both ways, so the HTTP/2 frames and the headers are the browser's, the TLS is the
//   proxy's.
// - A plain-HTTP request in absolute form is forwarded as a normal proxy does (header names,
//   case and order kept; Proxy-Connection dropped).
// - Anything not on loopback is refused at once (403): the matrices make loopback traffic only,
//   and a browser's own background requests (Firefox's remote settings and telemetry, a
//   blocker's filter lists) left waiting on a proxy that cannot reach them fill the browser's
//   connections to the proxy, so that the page's own requests queue behind them (seen: Firefox's
//   side fetch timing out after 3 s).
// <state dir> holds ca.pem and ca.key (./intercepting-proxy.ts makes them); leaves go there too.

import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { isIP, type Socket } from 'node:net'
import { join } from 'node:path'
import { connect as tlsConnect, createSecureContext, TLSSocket, type SecureContext } from 'node:tls'

const dir = process.argv[2]
if (!dir) throw new Error('usage: intercepting-proxy-main <state dir>')

/** ANTIBOT_PROXY_LOG=1: one line per tunnel event on stderr, for debugging a browser's traffic through it. */
const log = process.env.ANTIBOT_PROXY_LOG === '1' ? (...a: unknown[]) => process.stderr.write(`proxy ${Date.now() % 100000} ${a.join(' ')}\n`) : () => {}
let tunnels = 0

const leaves = new Map<string, SecureContext>()
/** A leaf certificate for `host` signed by the proxy's CA, as an inspecting proxy makes one per site. */
function leafFor(host: string): SecureContext {
  const known = leaves.get(host)
  if (known) return known
  const name = host.replace(/[^a-z0-9.-]/gi, '_')
  const p = (f: string) => join(dir!, `${name}.${f}`)
  if (!existsSync(p('pem'))) {
    execFileSync('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', p('key'), '-out', p('csr'), '-subj', `/CN=${host}`], { stdio: 'ignore' })
    writeFileSync(p('ext'), `subjectAltName=${isIP(host) ? 'IP' : 'DNS'}:${host}\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`)
    execFileSync('openssl', ['x509', '-req', '-in', p('csr'), '-CA', join(dir!, 'ca.pem'), '-CAkey', join(dir!, 'ca.key'), '-CAcreateserial', '-out', p('pem'), '-days', '2', '-extfile', p('ext')], { stdio: 'ignore' })
  }
  const context = createSecureContext({ cert: readFileSync(p('pem'), 'utf8') + readFileSync(join(dir!, 'ca.pem'), 'utf8'), key: readFileSync(p('key')) })
  leaves.set(host, context)
  return context
}

/** Only the service on this machine is reached. */
const onLoopback = (host: string) => host === 'localhost' || host === '127.0.0.1' || host === '::1'

const server = createServer((req, res) => {
  // A proxied plain-HTTP request: absolute-form target.
  let target: URL
  try {
    target = new URL(req.url ?? '')
  } catch {
    res.writeHead(400).end('not a proxy request')
    return
  }
  log('http', req.method, req.url)
  if (!onLoopback(target.hostname.replace(/^\[|\]$/g, ''))) {
    res.writeHead(403).end('this proxy reaches loopback only')
    return
  }
  const headers: string[] = []
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (!/^proxy-/i.test(req.rawHeaders[i]!)) headers.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
  }
  const upstream = request({ host: target.hostname, port: target.port || 80, method: req.method, path: `${target.pathname}${target.search}`, headers: headers as unknown as Record<string, string>, setHost: false }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.rawHeaders as unknown as Record<string, string>)
    up.pipe(res)
  })
  upstream.on('error', () => res.writeHead(502).end())
  req.pipe(upstream)
})

server.on('connect', (req, client: Socket, head: Buffer) => {
  const [host, portText] = (req.url ?? '').split(/:(?=\d+$)/)
  const port = Number(portText) || 443
  const bare = host!.replace(/^\[|\]$/g, '')
  if (!onLoopback(bare)) {
    log(++tunnels, 'refused', req.url)
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n')
    return
  }
  const id = ++tunnels
  log(id, 'CONNECT', req.url)
  const upstream = tlsConnect({ host: bare, port, ALPNProtocols: ['h2', 'http/1.1'], rejectUnauthorized: false, ...(isIP(bare) ? {} : { servername: bare }) })
  const fail = () => {
    client.destroy()
    upstream.destroy()
  }
  upstream.once('error', () => {
    if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
  })
  upstream.once('secureConnect', () => {
    const protocol = upstream.alpnProtocol || 'http/1.1'
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
    const browser = new TLSSocket(client, { isServer: true, secureContext: leafFor(bare), ALPNProtocols: [protocol] })
    log(id, 'upstream', protocol)
    browser.on('secure', () => log(id, 'browser tls', browser.alpnProtocol))
    browser.on('data', (d: Buffer) => log(id, 'browser->', d.length))
    upstream.on('data', (d: Buffer) => log(id, '<-upstream', d.length))
    browser.on('close', () => log(id, 'browser closed'))
    upstream.on('close', () => log(id, 'upstream closed'))
    if (head.length) client.unshift(head)
    browser.on('error', fail)
    upstream.on('error', fail)
    browser.pipe(upstream)
    upstream.pipe(browser)
    browser.on('close', () => upstream.destroy())
    upstream.on('close', () => browser.destroy())
  })
})
// A malformed request only ends that connection.
server.on('clientError', (_e, socket) => socket.destroy())
// The service's two names here, made before the first browser asks (openssl takes a few hundred
// milliseconds on a busy machine, which a page's side fetch would otherwise wait for).
for (const host of ['localhost', '127.0.0.1']) leafFor(host)
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`)
})
