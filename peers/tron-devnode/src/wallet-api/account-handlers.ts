/** Account endpoints: getaccount, getaccountresource, getassetissuebyid. */
import { FREE_NET_LIMIT_BYTES, NET_WINDOW_MS } from "../chain-parameters.ts";
import { toHex } from "../hex.ts";
import type { Ledger } from "../ledger.ts";
import { printAccount, printAccountResource, printAssetIssue } from "../print-chain-json.ts";
import { parseAddressField } from "../transaction-json.ts";
import type { WalletRequest } from "./wallet-request.ts";

/** `getaccount`: the account in the view's state, `{}` when it does not exist. */
export function getAccount(ledger: Ledger, request: WalletRequest): unknown {
  const address = parseAddressField(request.params.address, request.visible, "address");
  const account = address ? ledger.view(request.solidity).state.accounts.get(toHex(address)) : undefined;
  return account ? printAccount(account, request.visible) : {};
}

/** `getaccountresource`: the free bandwidth used, recovered linearly over the net window. */
export function getAccountResource(ledger: Ledger, request: WalletRequest): unknown {
  const address = parseAddressField(request.params.address, request.visible, "address");
  const account = address ? ledger.pendingView.accounts.get(toHex(address)) : undefined;
  if (!account) return {};
  const elapsed = ledger.head.raw.timestamp - account.latestConsumeFreeTime;
  const used = elapsed >= NET_WINDOW_MS ? 0 : Math.ceil((account.freeNetUsage * (NET_WINDOW_MS - elapsed)) / NET_WINDOW_MS);
  return printAccountResource(account, Math.min(used, FREE_NET_LIMIT_BYTES));
}

/** `getassetissuebyid`: a genesis TRC-10 token. */
export function getAssetIssueById(ledger: Ledger, request: WalletRequest): unknown {
  const token = ledger.genesis.trc10.find((candidate) => candidate.id === String(request.params.value ?? ""));
  return token ? printAssetIssue(token, request.visible, ledger.genesis.timestamp) : {};
}
