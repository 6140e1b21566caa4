/**
 * When the scanner watches a webhook, as SQL over its projection (a plain string, for drills and
 * benches through @chaingate/scanner/testing). One row (`address_count`) when the scanner's projection (schema `scanner`) holds webhook $1 at
 * version $2 or newer WITH its addresses: its meta is stored and the buckets of its level add up to
 * its address count (a deleted or inactive webhook: its meta is enough). From then on the next
 * processed block watches it. Parameters: webhook id, minimum version (0: any).
 */
export const WEBHOOK_WATCHED_SQL = `
  select w.address_count from scanner.webhooks w
   where w.webhook_id = $1 and w.version >= $2
     and (w.deleted or not w.is_active or w.address_count = (
           select coalesce(sum(jsonb_array_length(b.addresses)), 0) from scanner.webhook_buckets b
            where b.webhook_id = w.webhook_id and b.bucket_bits = w.bucket_bits))`;
