// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Tokens off every token list, as an exchange's deposit addresses receive them (issue #31,
/// `all_tokens`): one without `decimals()` (reported in raw units), and a spam token whose
/// `decimals()` burns all the gas it is given (it must never hold a block back).
abstract contract BareToken {
    mapping(address => uint256) public balanceOf;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint256 supply) {
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        require(balanceOf[msg.sender] >= value, "balance too low");
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract NoDecimalsToken is BareToken {
    constructor(uint256 supply) BareToken(supply) {}
}

contract GasBurningDecimalsToken is BareToken {
    uint256 private counter;

    constructor(uint256 supply) BareToken(supply) {}

    function decimals() external returns (uint8) {
        while (true) counter++;
        return 18;
    }
}
