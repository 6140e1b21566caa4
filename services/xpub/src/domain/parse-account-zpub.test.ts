import { describe, expect, it } from "vitest";
import { ChaingateError } from "@chaingate/errors";
import vectors from "./fixtures/bip84-vectors.json" with { type: "json" };
import rejections from "./fixtures/zpub-rejections.json" with { type: "json" };
import { maskKey, parseAccountZpub } from "./parse-account-zpub.ts";
import { XpubRejectedError } from "./xpub-rejection-errors.ts";

describe("parseAccountZpub accepts BIP84 account zpubs", () => {
  for (const account of vectors.accounts) {
    it(account.name, () => {
      const parsed = parseAccountZpub(account.zpub, "mainnet");
      expect(parsed.zpub).toBe(account.zpub);
      expect(parsed.depth).toBe(3);
      expect(parsed.childNumber).toBe(account.childNumber);
      expect(parsed.accountIndex).toBe(account.accountIndex);
      expect(parsed.parentFingerprint).toBe(account.parentFingerprint);
      expect(parsed.xpubPreview).toBe(account.xpubPreview);
      expect(parsed.publicKey).toHaveLength(33);
      expect(parsed.chainCode).toHaveLength(32);
      if ("fingerprint" in account) expect(parsed.fingerprint).toBe(account.fingerprint);
      if ("publicKey" in account) expect(Buffer.from(parsed.publicKey).toString("hex")).toBe(account.publicKey);
    });
  }

  it("keeps the network it was given and defaults to mainnet", () => {
    const [account] = vectors.accounts;
    expect(parseAccountZpub(account!.zpub).network).toBe("mainnet");
    expect(parseAccountZpub(account!.zpub, "litecoin-regtest").network).toBe("litecoin-regtest");
  });
});

describe("parseAccountZpub rejects everything but an account zpub", () => {
  for (const rejection of rejections.cases) {
    it(`${rejection.name} → ${rejection.code}`, () => {
      let thrown: unknown;
      try {
        parseAccountZpub(rejection.input, "mainnet");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(XpubRejectedError);
      expect(thrown).toBeInstanceOf(ChaingateError);
      const error = thrown as XpubRejectedError;
      expect(error.code).toBe(rejection.code);
      expect(error.name).toBe(rejection.errorName);
      for (const fragment of rejection.messageIncludes) expect(error.message).toContain(fragment);
      // Rejection messages end up in logs and 422 bodies: they must never carry the submitted key
      // (which may be a private key).
      if (rejection.input.trim().length > 8) {
        expect(error.message).not.toContain(rejection.input.trim());
        expect(JSON.stringify(error.details ?? {})).not.toContain(rejection.input.trim());
      }
    });
  }

  it("gives each rejection condition its own code", () => {
    const codes = new Set(rejections.cases.map((rejection) => rejection.code));
    expect([...codes].sort()).toEqual([
      "xpub_bad_checksum",
      "xpub_invalid_public_key",
      "xpub_not_account_key",
      "xpub_private_key",
      "xpub_unparseable",
      "xpub_wrong_depth",
      "xpub_wrong_version",
    ]);
  });

  it("refuses a non-string at run time (JSON bodies are untyped)", () => {
    expect(() => parseAccountZpub(42 as unknown as string)).toThrow(expect.objectContaining({ code: "xpub_unparseable" }));
    expect(() => parseAccountZpub(null as unknown as string)).toThrow(expect.objectContaining({ code: "xpub_unparseable" }));
  });
});

describe("maskKey", () => {
  it("shows the first 8 and last 4 characters around an ellipsis", () => {
    expect(maskKey("zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs")).toBe(
      "zpub6rFR…tZYs",
    );
  });
  it("reveals nothing of a string too short to mask", () => {
    expect(maskKey("zpub6rFR7y4Q")).toBe("…");
  });
});
