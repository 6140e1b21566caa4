/** The delivery process: the webhook registry (and, later, signed delivery of notifications). */
import { runService } from "@chaingate/service-kit";
import { deliveryConfigSchema } from "./config.ts";
import { createDeliveryService } from "./create-delivery-service.ts";

await runService("delivery", deliveryConfigSchema, createDeliveryService);
