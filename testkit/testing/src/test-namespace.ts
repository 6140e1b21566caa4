import { randomBytes } from "node:crypto";

/** A NATS namespace of a test file's own: short (it prefixes stream and consumer names), unique. */
export const testNamespace = () => `t${randomBytes(4).toString("hex")}`;
