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
// <state dir> holds ca.pem and ca.key (./intercepting-proxy.ts makes them); leaves go there too.

import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { isIP, type Socket } from 'node:net'
import { join } from 'node:path'
import { connect as tlsConnect, createSecureContext, TLSSocket, type SecureContext } from 'node:tls'

const dir = process.argv[2]
if (!dir) throw new Error('usage: intercepting-proxy-main <state dir>')

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

const server = createServer((req, res) => {
  // A proxied plain-HTTP request: absolute-form target.
  let target: URL
  try {
    target = new URL(req.url ?? '')
  } catch {
    res.writeHead(400).end('not a proxy request')
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
server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`)
})
