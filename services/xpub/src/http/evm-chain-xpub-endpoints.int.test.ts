/**
 * A configured EVM chain's xpub endpoints (issue #31): the Ethereum suite run unchanged under
 * `/api/v1/polygon/xpub`, then what is particular to a second EVM chain. Its records never answer
 * under Ethereum's path nor Ethereum's under its path, and since every EVM chain derives the same
 * addresses from one key, a key holds one record over all EVM chains: the account that registered
 * it for one is told which record, another account gets the usual "already registered".
 */
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDNodeWallet } from "ethers";
import { describe, expect } from "vitest";
import { ACCOUNT_XPUB, MNEMONIC, alice, bob, evmXpubConformance, xpubCallTest as it } from "../testing/evm-xpub-conformance.ts";

it.scoped({ xpubSettings: { EVM_CHAINS: JSON.stringify([{ name: "polygon" }]) } });

evmXpubConformance({ prefix: "polygon", chain: "POLYGON", chainName: "POLYGON" });

/** The account key m/44'/60'/1' of the suite's mnemonic: another key, for Ethereum. */
const SECOND_ACCOUNT_XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive("m/44'/60'/1'").publicExtendedKey;

describe("a configured EVM chain beside Ethereum", () => {
  it("keeps Ethereum's and the chain's records apart, each under its own path", async ({ call }) => {
    const polygon = await call("POST", "/api/v1/polygon/xpub", alice, { xpub: ACCOUNT_XPUB });
    const eth = await call("POST", "/api/v1/eth/xpub", alice, { xpub: SECOND_ACCOUNT_XPUB });
    expect([polygon.body.chain, eth.body.chain]).toEqual(["POLYGON", "ETH"]);
    const notFound = (id: unknown) => ({ status: 404, body: { message: `No xpub record with id ${String(id)} was found.` } });
    expect(await call("POST", `/api/v1/eth/xpub/${String(polygon.body.id)}/address`, alice)).toEqual(notFound(polygon.body.id));
    expect(await call("POST", `/api/v1/polygon/xpub/${String(eth.body.id)}/address`, alice)).toEqual(notFound(eth.body.id));
    const listed = await call("GET", "/api/v1/polygon/xpub", alice);
    expect((listed.body.data as Array<{ id: number }>).map((record) => record.id)).toEqual([polygon.body.id]);
    const issued = await call("POST", `/api/v1/eth/xpub/${String(eth.body.id)}/address`, alice);
    expect(issued.body).toMatchObject({ address: HDNodeWallet.fromPhrase(MNEMONIC, undefined, "m/44'/60'/1'/0/0").address, index: 0 });
  });

  it("one key, one record over the EVM chains: the holder is told which record; another account learns only that it is registered", async ({
    call,
  }) => {
    const polygon = await call("POST", "/api/v1/polygon/xpub", alice, { xpub: ACCOUNT_XPUB });
    expect(polygon.status).toBe(200);
    const own = `This extended key is already registered for POLYGON (record ${String(polygon.body.id)}), and every EVM chain derives the same addresses from it: a record for ETH too would hand out addresses already issued. Register another account key for ETH (for example m/44'/60'/1').`;
    expect(await call("POST", "/api/v1/eth/xpub", alice, { xpub: ACCOUNT_XPUB })).toEqual({
      status: 409,
      body: { message: own, errors: { xpub: [own] } },
    });
    const held =
      "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";
    expect(await call("POST", "/api/v1/eth/xpub", bob, { xpub: ACCOUNT_XPUB })).toEqual({
      status: 409,
      body: { message: held, errors: { xpub: [held] } },
    });
    // The refused registrations left no record behind.
    expect((await call("GET", "/api/v1/eth/xpub", alice)).body.meta).toMatchObject({ total: 1 });
    expect((await call("GET", "/api/v1/eth/xpub", bob)).body.meta).toMatchObject({ total: 0 });
  });
});
