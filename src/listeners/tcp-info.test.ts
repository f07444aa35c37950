import { describe, expect, test } from 'bun:test'
import { connect, createServer, type Socket } from 'node:net'
import { tcpRttMicros } from './tcp-info'

/** A loopback server; resolves with its accepted socket and the client socket. */
async function loopbackPair(): Promise<{ accepted: Socket; client: Socket; close(): void }> {
  let onAccept: (s: Socket) => void = () => {}
  const acceptedP = new Promise<Socket>((r) => (onAccept = r))
  const server = createServer((s) => onAccept(s))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  const client = connect(port, '127.0.0.1')
  client.on('error', () => {})
  const accepted = await acceptedP
  accepted.on('error', () => {})
  return {
    accepted,
    client,
    close() {
      client.destroy()
      accepted.destroy()
      server.close()
    },
  }
}

describe('tcpRttMicros', () => {
  test('reads the handshake RTT of an accepted loopback connection on Linux: a small positive number of µs (null elsewhere)', async () => {
    const p = await loopbackPair()
    try {
      if (process.platform !== 'linux') {
        expect(tcpRttMicros(p.accepted)).toBeNull()
        return
      }
      const rtt = tcpRttMicros(p.accepted)
      expect(rtt).not.toBeNull()
      expect(rtt!).toBeGreaterThan(0)
      // Loopback answers within microseconds; a whole second would mean a wrong offset.
      expect(rtt!).toBeLessThan(1_000_000)
      // The client side is a TCP socket too.
      expect(tcpRttMicros(p.client)).toBeGreaterThan(0)
    } finally {
      p.close()
    }
  })

  test('is null for a destroyed socket', async () => {
    const p = await loopbackPair()
    p.accepted.destroy()
    expect(tcpRttMicros(p.accepted)).toBeNull()
    p.close()
  })

  test('is null, never a throw, for something that is not a connected socket', () => {
    expect(tcpRttMicros({} as Socket)).toBeNull()
    expect(tcpRttMicros({ _handle: { fd: -1 } } as unknown as Socket)).toBeNull()
    expect(tcpRttMicros({ _handle: { fd: 'x' } } as unknown as Socket)).toBeNull()
    expect(tcpRttMicros(null as unknown as Socket)).toBeNull()
    // A descriptor that is not a TCP socket: getsockopt fails (ENOTSOCK), the answer is null.
    expect(tcpRttMicros({ _handle: { fd: 0 } } as unknown as Socket)).toBeNull()
  })
})
