/** zod with the `.openapi()` extension, imported by every contract so it is applied once. */
import { extendZodWithOpenApi } from "@asteasolutions/zod-to-openapi";
import { z } from "zod";

extendZodWithOpenApi(z);

export { z };
