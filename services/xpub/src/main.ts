/** The xpub process: registers BIP84 account keys and issues their receive addresses. */
import { runService } from "@chaingate/service-kit";
import { xpubConfigSchema } from "./config.ts";
import { createXpubService } from "./create-xpub-service.ts";

await runService("xpub", xpubConfigSchema, createXpubService);
