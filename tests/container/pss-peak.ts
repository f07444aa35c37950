// Follows a container's processes from the host (tests/container/run.sh): PSS summed over the
// container's first process and its descendants (tests/support/pss.ts), every 50 ms, until
// SIGTERM; then prints the peak and the processes at that moment. Unlike the memory cgroup's
// own peak, which counts the page cache the kernel fills the limit with and reclaims, this is
// what the service's processes held.
//   bun tests/container/pss-peak.ts HOSTPID

import { describeParts, treeSampler } from '../support/pss'

const pid = Number(process.argv[2])
if (!Number.isInteger(pid) || pid <= 0) {
  console.error('usage: bun tests/container/pss-peak.ts HOSTPID')
  process.exit(2)
}
const sampler = treeSampler(pid)
process.on('SIGTERM', () => {
  sampler.stop()
  const peak = sampler.peak
  console.log(`${peak.mb.toFixed(0)} MB (${describeParts(peak)})`)
  process.exit(0)
})
