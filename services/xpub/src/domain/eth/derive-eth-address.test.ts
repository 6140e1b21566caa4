import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDNodeWallet } from "ethers";
import { describe, expect, it } from "vitest";
import rejections from "../fixtures/eth-xpub-rejections.json" with { type: "json" };
import bitcoinRejections from "../fixtures/zpub-rejections.json" with { type: "json" };
import { XpubRejectedError } from "../xpub-rejection-errors.ts";
import { deriveEthAddress } from "./derive-eth-address.ts";
import { parseEthAccountXpub } from "./parse-eth-account-xpub.ts";

/** Hardhat's (and Foundry's) well-known development mnemonic, and BIP39's test one. */
const MNEMONICS = [
  "test test test test test test test test test test test junk",
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
];

const accountXpub = (mnemonic: string, account = 0) =>
  HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(`m/44'/60'/${account}'`).publicExtendedKey;

describe("deriveEthAddress", () => {
  it.each(MNEMONICS)("issues the addresses wallets derive from %s (ethers as the reference)", (mnemonic) => {
    const account = parseEthAccountXpub(accountXpub(mnemonic));
    for (const index of [0, 1, 2, 19, 1000]) {
      const expected = HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${index}`).address;
      expect(deriveEthAddress(account, index)).toEqual({
        address: expected,
        address_lowercase: expected.toLowerCase(),
        index,
        path: `m/44'/60'/0'/0/${index}`,
      });
    }
  });

  it("knows Hardhat's first dev account", () => {
    expect(deriveEthAddress(parseEthAccountXpub(accountXpub(MNEMONICS[0]!)), 0).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });

  it("writes the account index of a second account into the path", () => {
    const second = parseEthAccountXpub(accountXpub(MNEMONICS[0]!, 1));
    expect(deriveEthAddress(second, 0)).toMatchObject({
      address: HDNodeWallet.fromPhrase(MNEMONICS[0]!, undefined, "m/44'/60'/1'/0/0").address,
      path: "m/44'/60'/1'/0/0",
    });
  });
});

describe("parseEthAccountXpub", () => {
  it("accepts the account xpub of a second account and reads its account index", () => {
    expect(parseEthAccountXpub(accountXpub(MNEMONICS[1]!, 7))).toMatchObject({
      accountIndex: 7,
      xpubPreview: expect.stringMatching(/^xpub.{4}….{4}$/),
    });
  });

  for (const rejection of rejections.cases) {
    it(`refuses ${rejection.name} → ${rejection.code}`, () => {
      let thrown: unknown;
      try {
        parseEthAccountXpub(rejection.input);
      } catch (error) {
        thrown = error;
      }
      // The same error family as the Bitcoin rejections: the HTTP layer maps it to the same 422.
      expect(thrown).toBeInstanceOf(XpubRejectedError);
      const error = thrown as XpubRejectedError;
      expect(error.code).toBe(rejection.code);
      expect(error.name).toBe(rejection.errorName);
      for (const fragment of rejection.messageIncludes) expect(error.message).toContain(fragment);
      // A rejected key may be a private key: it never appears in the message (logs, 422 bodies).
      if (rejection.input.trim().length > 8) expect(error.message).not.toContain(rejection.input.trim());
    });
  }

  it("covers every rejection condition of the Bitcoin parser, with the same codes", () => {
    const codes = (cases: ReadonlyArray<{ code: string }>) => [...new Set(cases.map((rejection) => rejection.code))].sort();
    expect(codes(rejections.cases)).toEqual(codes(bitcoinRejections.cases));
  });
});
