// What the page's DNS lookups (probes/signals/dns-lookups.ts) report when the service has no
// DNS zone, and the checks recognise. A module of its own, free of TypeBox, so that importing
// it does not pull the schema library into a probe bundle.

export const NO_ZONE_MESSAGE = 'no DNS zone configured (DNS_ZONE)'
