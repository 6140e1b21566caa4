/** The BIP84 test vectors (domain/fixtures) for tests outside this package that register a real zpub. */
import vectors from "../domain/fixtures/bip84-vectors.json" with { type: "json" };

export const BIP84_VECTORS = vectors;
