import { QUOTA_USAGE_ROUTE, type QuotaUsage } from "@chaingate/contracts";
import type { HttpApp } from "@chaingate/http";
import type { WebhookAppOptions } from "./webhook-app-options.ts";

/** Internal (the admin CLI's `quotas`; the gateway routes only /api/v1 here): what the account uses of its quotas. */
export function registerQuotaUsageRoute(http: HttpApp, options: WebhookAppOptions): void {
  http.route("get", QUOTA_USAGE_ROUTE, async (req, res) => {
    const accountId = Number(req.params.account);
    const usage = await options.repository.usage(accountId);
    const { quotas } = options;
    const answer: QuotaUsage = {
      account_id: accountId,
      quotas: [
        { setting: "QUOTA_WEBHOOKS_PER_ACCOUNT", used: usage.webhooks, limit: quotas.webhooksPerAccount },
        { setting: "QUOTA_WEBHOOK_ADDRESSES_PER_ACCOUNT", used: usage.addresses, limit: quotas.addressesPerAccount },
        {
          setting: "QUOTA_TEST_EVENTS_PER_WEBHOOK_PER_MINUTE",
          used: usage.testEventsLastMinute,
          limit: quotas.testEventsPerWebhookPerMinute,
        },
      ],
    };
    res.json(answer);
  });
}
