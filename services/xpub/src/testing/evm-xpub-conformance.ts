/**
 * The Ethereum xpub endpoints as a suite run for Ethereum and for each configured EVM chain's prefix
 * (issue #31: `/api/v1/{name}/xpub` answers exactly as `/api/v1/eth/xpub`): at the service's internal
 * edge over a real Postgres, an account xpub of a well-known mnemonic issues exactly the addresses
 * wallets derive from it (ethers as the reference), refusals give the parser's reason, Bitcoin and
 * EVM records never answer under each other's path, and one key has one account. Call it from a
 * test file of its own per chain (the file's database holds the suite's records).
 */
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { HDNodeWallet } from "ethers";
import { describe, expect } from "vitest";
import vectors from "../domain/fixtures/bip84-vectors.json" with { type: "json" };
import rejections from "../domain/fixtures/eth-xpub-rejections.json" with { type: "json" };
import { XPUB_VERSION } from "../domain/extended-key-versions.ts";
import { xpubTest } from "./xpub-fixtures.ts";
import { sameNodeOtherText, withVersion } from "./same-node-other-text.ts";

export const MNEMONIC = "test test test test test test test test test test test junk";
const seed = mnemonicToSeedSync(MNEMONIC);
export const ACCOUNT_XPUB = HDKey.fromMasterSeed(seed).derive("m/44'/60'/0'").publicExtendedKey;
const walletAddress = (index: number) => HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`).address;

/** Accounts the gateway would have authenticated. */
export const alice = { accountId: 1 };
export const bob = { accountId: 2 };

export type XpubCall = (
  method: "GET" | "POST",
  path: string,
  as: { accountId: number },
  body?: unknown,
) => Promise<{ status: number; body: Record<string, unknown> }>;

/** `call`: a JSON request to the service's edge as the gateway forwards it for an account. */
export const xpubCallTest = xpubTest.extend<{ call: XpubCall }>({
  call: async ({ edge }, use) =>
    use(async (method, path, as, body) => {
      const response = await edge.request(as.accountId, path, {
        method,
        headers: { accept: "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }),
});

export interface EvmXpubChain {
  /** The API prefix: `eth`, `polygon`. */
  prefix: string;
  /** The records' `chain`: ETH, POLYGON. */
  chain: string;
  /** How refusals name the chain: Ethereum, POLYGON. */
  chainName: string;
}

/** The suite, under `/api/v1/{prefix}/xpub`. */
export function evmXpubConformance({ prefix, chain, chainName }: EvmXpubChain): void {
  const it = xpubCallTest;
  const base = `/api/v1/${prefix}/xpub`;
  describe(`POST /api/v1/${prefix}/xpub and the addresses it issues`, () => {
    it("registers a BIP44 account xpub and issues the wallet's addresses in order, checksummed and lower-cased", async ({ call }) => {
      const registered = await call("POST", base, alice, { xpub: ACCOUNT_XPUB, label: "hot wallet" });
      expect(registered.status).toBe(201);
      expect(registered.body).toMatchObject({
        chain,
        label: "hot wallet",
        next_index: 0,
        issued_count: 0,
        xpub_preview: `${ACCOUNT_XPUB.slice(0, 8)}…${ACCOUNT_XPUB.slice(-4)}`,
      });
      const id = registered.body.id as number;

      for (let index = 0; index < 3; index++) {
        const issued = await call("POST", `${base}/${id}/address`, alice);
        expect(issued.status).toBe(201);
        expect(issued.body).toEqual({
          address: walletAddress(index),
          address_lowercase: walletAddress(index).toLowerCase(),
          index,
          path: `m/44'/60'/0'/0/${index}`,
        });
      }
      const again = await call("POST", base, alice, { xpub: ACCOUNT_XPUB });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ id, next_index: 3, issued_count: 3, label: "hot wallet" });

      const history = await call("GET", `${base}/${id}/addresses?per_page=2&page=2`, alice);
      expect(history.body).toEqual({
        data: [{ address: walletAddress(2), address_lowercase: walletAddress(2).toLowerCase(), index: 2, created_at: expect.any(String) }],
        meta: { current_page: 2, per_page: 2, total: 3, last_page: 2 },
      });
    });

    it.for(rejections.cases.map((c) => [c.name, c] as const))(
      "refuses %s: 422 with the parser's reason under errors.xpub, as for Bitcoin",
      async ([, rejection], { call }) => {
        const refused = await call("POST", base, bob, { xpub: rejection.input });
        expect(refused.status).toBe(422);
        const errors = refused.body.errors as Record<string, string[]>;
        expect(Object.keys(errors)).toEqual(["xpub"]);
        expect(errors.xpub).toHaveLength(1);
        for (const part of rejection.messageIncludes) expect(errors.xpub![0]).toContain(part);
        expect(refused.body.message).toBe(errors.xpub![0]);
      },
    );

    it("refuses a Bitcoin BIP84 zpub, naming it", async ({ call }) => {
      const refused = await call("POST", base, bob, { xpub: vectors.accounts[0]!.zpub });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(
        new RegExp(`^The key is a zpub; only a BIP44 account key in xpub encoding is accepted for ${chainName}\\.`),
      );
    });

    it(`keeps chains apart: a Bitcoin record is a 404 under /${prefix}/xpub and a ${chain} record under /btc/xpub; another account's is a 404 too`, async ({
      call,
    }) => {
      const btc = await call("POST", "/api/v1/btc/xpub", alice, { xpub: vectors.accounts[0]!.zpub });
      expect(btc.body.chain).toBe("BTC");
      const eth = await call("POST", base, alice, { xpub: ACCOUNT_XPUB });
      const notFound = (id: unknown) => ({ status: 404, body: { message: `No xpub record with id ${String(id)} was found.` } });
      expect(await call("POST", `${base}/${String(btc.body.id)}/address`, alice)).toEqual(notFound(btc.body.id));
      expect(await call("GET", `${base}/${String(btc.body.id)}/addresses`, alice)).toEqual(notFound(btc.body.id));
      expect(await call("POST", `/api/v1/btc/xpub/${String(eth.body.id)}/address`, alice)).toEqual(notFound(eth.body.id));
      expect(await call("POST", `${base}/${String(eth.body.id)}/address`, bob)).toEqual(notFound(eth.body.id));
    });

    it("one key, one account: another account's registration of the xpub, as the same text or re-serialized, is a 409", async ({
      call,
    }) => {
      expect((await call("POST", base, alice, { xpub: ACCOUNT_XPUB })).status).toBe(200);
      const held =
        "This extended key cannot be registered: it is already registered. If it is yours, ask the operator to move it to your account.";
      for (const text of [ACCOUNT_XPUB, sameNodeOtherText(ACCOUNT_XPUB)]) {
        expect(await call("POST", base, bob, { xpub: text })).toEqual({
          status: 409,
          body: { message: held, errors: { xpub: [held] } },
        });
      }
    });

    it(`the rule is per kind of chain: a node alice registered as a Bitcoin zpub may be bob's ${chain} xpub (other addresses, other chain)`, async ({
      call,
    }) => {
      const zpub = vectors.accounts[0]!.zpub;
      expect((await call("POST", "/api/v1/btc/xpub", alice, { xpub: zpub })).status).toBe(200);
      expect((await call("POST", base, bob, { xpub: withVersion(zpub, XPUB_VERSION) })).status).toBe(201);
    });
  });
}
