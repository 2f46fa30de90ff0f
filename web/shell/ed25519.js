// The Ed25519 fallback (js/signature.js): @noble/ed25519 (audited, no dependencies), bundled
// by tools/dist.py as its own file, imported only where WebCrypto has no Ed25519. Its SHA-512
// is WebCrypto's digest, which every browser the site runs in has.
import { verifyAsync } from "@noble/ed25519";

/**
 * Whether `signature` is `message` signed by the raw 32-byte public `key`. RFC 8032's checks
 * (zip215 off: a non-canonical point encoding is refused), as WebCrypto and the endpoint's
 * cryptography do; any malformed input is a refusal.
 * @param {Uint8Array} signature
 * @param {Uint8Array} message
 * @param {Uint8Array} key
 * @returns {Promise<boolean>}
 */
export async function verify(signature, message, key) {
  try {
    return await verifyAsync(signature, message, key, { zip215: false });
  } catch {
    return false;
  }
}
