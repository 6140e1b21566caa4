export const WEBHOOKS_PATH = "/api/v1/webhooks";

/** One webhook by its numeric id (`:webhook`); the routes below it extend this path. */
export const ONE_WEBHOOK_PATH = `${WEBHOOKS_PATH}/:webhook(\\d+)`;
