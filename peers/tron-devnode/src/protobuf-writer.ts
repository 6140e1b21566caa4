/**
 * A minimal proto3 binary writer: enough for the handful of Tron messages the node serialises.
 * Callers write fields in field-number order and skip default values, which is what protobuf-java does
 * and what makes `raw_data_hex` byte-identical to java-tron and TronWeb.
 */

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const UINT64_MASK = (1n << 64n) - 1n;

/** Accumulates one protobuf message. */
export class ProtobufWriter {
  private readonly chunks: number[] = [];

  /** Writes a varint field (int32/int64/enum/bool); negatives use 64-bit two's complement like protobuf-java. Skips 0. */
  varint(field: number, value: number | bigint): this {
    const big = BigInt(value);
    if (big === 0n) return this;
    this.tag(field, WIRE_VARINT);
    this.rawVarint(big & UINT64_MASK);
    return this;
  }

  /** Writes a bytes field; skips empty bytes. */
  bytes(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(BigInt(value.length));
    for (const byte of value) this.chunks.push(byte);
    return this;
  }

  /** Writes a string field as UTF-8; skips the empty string. */
  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  /** Writes an embedded message field. Unlike scalar fields, a present but empty message is still written. */
  message(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LENGTH_DELIMITED);
    this.rawVarint(BigInt(value.length));
    for (const byte of value) this.chunks.push(byte);
    return this;
  }

  /** The serialised message. */
  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(BigInt((field << 3) | wireType));
  }

  private rawVarint(value: bigint): void {
    let rest = value;
    while (rest > 0x7fn) {
      this.chunks.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.chunks.push(Number(rest));
  }
}
