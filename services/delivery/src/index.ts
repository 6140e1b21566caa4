export { createDeliveryService, type DeliveryService } from "./create-delivery-service.ts";
export { deliveryConfigSchema, type DeliveryConfig } from "./config.ts";
