// The kernel's round-trip estimate for one accepted TCP connection: getsockopt(IPPROTO_TCP,
// TCP_INFO) fills a `struct tcp_info` (linux/include/uapi/linux/tcp.h) whose `tcpi_rtt` is the
// smoothed RTT in microseconds. Read right after accept, the server has sent nothing but its
// SYN-ACK, so the only sample is the handshake's: the round trip to whatever terminated the
// client's TCP connection (the browser, or a SOCKS/HTTP CONNECT proxy, Tor exit, or a
// userland port forwarder in front of the port).
//
// Neither Bun nor node:net exposes TCP_INFO, so this calls libc through bun:ffi on the socket's
// file descriptor. Linux only (the struct layout and option number are Linux's); everywhere
// else, and on any failure, the answer is null: the RTT is evidence, never a reason to drop a
// connection.

import type { Socket } from 'node:net'
import { endianness } from 'node:os'

const IPPROTO_TCP = 6
const TCP_INFO = 11
/** sizeof(struct tcp_info) on current kernels; older ones fill less and say so in optlen. */
const TCP_INFO_SIZE = 232
const TCPI_RTT_OFFSET = 68

type GetSockOpt = (fd: number, level: number, name: number, buf: Uint8Array, len: Uint32Array) => number

let getsockopt: GetSockOpt | null | undefined

/** libc's getsockopt through bun:ffi, opened on first use; null when unavailable. */
function loadGetsockopt(): GetSockOpt | null {
  if (getsockopt !== undefined) return getsockopt
  getsockopt = null
  if (process.platform !== 'linux' || typeof Bun === 'undefined') return null
  try {
    // Loaded here, not imported at the top: nothing touches libc on other platforms or runtimes.
    const ffi = require('bun:ffi') as typeof import('bun:ffi')
    const lib = ffi.dlopen('libc.so.6', { getsockopt: { args: ['i32', 'i32', 'i32', 'ptr', 'ptr'], returns: 'i32' } })
    getsockopt = (fd, level, name, buf, len) => lib.symbols.getsockopt(fd, level, name, buf, len)
  } catch {
    getsockopt = null
  }
  return getsockopt
}

/** The socket's file descriptor, from Bun's node:net handle; null when it has none (closed, not Bun). */
function fdOf(socket: Socket): number | null {
  const fd = (socket as unknown as { _handle?: { fd?: unknown } | null })._handle?.fd
  return typeof fd === 'number' && Number.isInteger(fd) && fd >= 0 ? fd : null
}

/**
 * The kernel's smoothed RTT of this TCP connection in microseconds (`tcpi_rtt`), or null on
 * other platforms, for a socket without a descriptor, or when getsockopt fails. Never throws.
 */
export function tcpRttMicros(socket: Socket): number | null {
  try {
    if (socket.destroyed) return null
    const call = loadGetsockopt()
    const fd = fdOf(socket)
    if (!call || fd === null) return null
    const buf = new Uint8Array(TCP_INFO_SIZE)
    const len = new Uint32Array([TCP_INFO_SIZE])
    if (call(fd, IPPROTO_TCP, TCP_INFO, buf, len) !== 0) return null
    if (len[0]! < TCPI_RTT_OFFSET + 4) return null
    const rtt = new DataView(buf.buffer).getUint32(TCPI_RTT_OFFSET, endianness() === 'LE')
    return rtt > 0 ? rtt : null
  } catch {
    return null
  }
}
