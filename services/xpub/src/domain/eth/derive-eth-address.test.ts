import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { getAddress, HDNodeWallet } from "ethers";
import { describe, expect, it } from "vitest";
import { deriveEthAddress, toChecksumAddress } from "./derive-eth-address.ts";
import { parseEthAccountXpub } from "./parse-eth-account-xpub.ts";

/** Hardhat's (and Foundry's) well-known development mnemonic, and BIP39's test one. */
const MNEMONICS = ["test test test test test test test test test test test junk", "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"];

const accountXpub = (mnemonic: string, account = 0) => HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(`m/44'/60'/${account}'`).publicExtendedKey;

describe("deriveEthAddress", () => {
  it.each(MNEMONICS)("issues the addresses wallets derive from %s (ethers as the reference)", (mnemonic) => {
    const account = parseEthAccountXpub(accountXpub(mnemonic));
    for (const index of [0, 1, 2, 19, 1000]) {
      const expected = HDNodeWallet.fromPhrase(mnemonic, undefined, `m/44'/60'/0'/0/${index}`).address;
      expect(deriveEthAddress(account, index)).toEqual({ address: expected, address_lowercase: expected.toLowerCase(), index, path: `m/44'/60'/0'/0/${index}` });
    }
  });

  it("knows Hardhat's first dev account", () => {
    expect(deriveEthAddress(parseEthAccountXpub(accountXpub(MNEMONICS[0]!)), 0).address).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });

  it("writes the account index of a second account into the path", () => {
    const second = parseEthAccountXpub(accountXpub(MNEMONICS[0]!, 1));
    expect(deriveEthAddress(second, 0)).toMatchObject({ address: HDNodeWallet.fromPhrase(MNEMONICS[0]!, undefined, "m/44'/60'/1'/0/0").address, path: "m/44'/60'/1'/0/0" });
  });

  it("checksums like EIP-55 (ethers' getAddress as the reference)", () => {
    for (const lower of ["5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "fb6916095ca1df60bb79ce92ce3ea74c37c5d359", "dbf03b407c01e7cd3cbea99509d93f8dddc8c6fb", "d1220a0cf47c7b9be7a2e6ba89f429762e7b9adb"]) {
      expect(toChecksumAddress(lower)).toBe(getAddress(`0x${lower}`));
    }
  });
});

describe("parseEthAccountXpub", () => {
  const master = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONICS[0]!));
  const account = master.derive("m/44'/60'/0'");
  const good = account.publicExtendedKey;
  const flipped = good.slice(0, 60) + (good[60] === "a" ? "b" : "a") + good.slice(61);
  it.each([
    ["a private key (xprv)", account.privateExtendedKey, "xpub_private_key", /private key \(xprv\)/],
    ["a BIP84 zpub", HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONICS[0]!), { public: 0x04b24746, private: 0x04b2430c }).derive("m/84'/0'/0'").publicExtendedKey, "xpub_wrong_version", /zpub/],
    ["an address-level key (depth 5)", master.derive("m/44'/60'/0'/0/0").publicExtendedKey, "xpub_wrong_depth", /depth 5/],
    ["the master key (depth 0)", master.publicExtendedKey, "xpub_wrong_depth", /depth 0/],
    ["a non-hardened depth-3 key", master.derive("m/44'/60'/0").publicExtendedKey, "xpub_not_account_key", /not hardened/],
    ["a mistyped key", flipped, "xpub_bad_checksum", /checksum/],
    ["garbage", "not a key at all", "xpub_unparseable", /cannot be parsed/],
    ["whitespace", ` ${good}`, "xpub_unparseable", /whitespace/],
  ])("refuses %s", (_name, input, code, message) => {
    expect(() => parseEthAccountXpub(input)).toThrow(message);
    try {
      parseEthAccountXpub(input);
    } catch (error) {
      expect((error as { code: string }).code).toBe(code);
    }
  });
});
