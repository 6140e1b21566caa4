// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// What contracts do with money in production, for the scanner's internal-transfer tests: forward
/// what they receive (a multisig or a smart account paying out), relay it through other contracts,
/// pay many addresses at once (an exchange's batch payout), self-destruct to a beneficiary, create a
/// contract with value at a precomputed CREATE2 address, and move tokens (transfer, transferFrom).
/// Also the failures: an inner call that reverts inside a successful transaction, and a transaction
/// that reverts after its inner call succeeded.
interface IToken {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

contract Deposit {
    constructor() payable {}
}

contract ValueRouter {
    receive() external payable {}

    function forward(address payable to) public payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "payment refused");
    }

    /// Through each hop in turn (each a ValueRouter), then to `to`: one call frame deeper per hop.
    function forwardThrough(address[] calldata hops, address payable to) external payable {
        if (hops.length == 0) return forward(to);
        ValueRouter(payable(hops[0])).forwardThrough{value: msg.value}(hops[1:], to);
    }

    function payout(address payable[] calldata tos, uint256[] calldata amounts) external payable {
        for (uint256 i = 0; i < tos.length; i++) {
            (bool ok, ) = tos[i].call{value: amounts[i]}("");
            require(ok, "payment refused");
        }
    }

    function forwardAndRevert(address payable to) external payable {
        forward(to);
        revert("inner call reverted");
    }

    /// The inner call pays `to` and reverts; this transaction succeeds and keeps the value.
    function tryForward(address payable to) external payable {
        try this.forwardAndRevert{value: msg.value}(to) {} catch {}
    }

    /// Pays `to`, then reverts the whole transaction.
    function forwardThenRevert(address payable to) external payable {
        forward(to);
        revert("transaction reverted");
    }

    function destroy(address payable beneficiary) external payable {
        selfdestruct(beneficiary);
    }

    function createDeposit(bytes32 salt) external payable returns (address) {
        return address(new Deposit{salt: salt, value: msg.value}());
    }

    function depositAddress(bytes32 salt) external view returns (address) {
        bytes32 hash = keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, keccak256(type(Deposit).creationCode)));
        return address(uint160(uint256(hash)));
    }

    function payTokens(IToken token, address[] calldata tos, uint256[] calldata amounts) external {
        for (uint256 i = 0; i < tos.length; i++) require(token.transfer(tos[i], amounts[i]), "token transfer failed");
    }

    function pullTokens(IToken token, address from, address to, uint256 amount) external {
        require(token.transferFrom(from, to, amount), "token transferFrom failed");
    }
}
