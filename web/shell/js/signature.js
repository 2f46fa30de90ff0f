// Ed25519 signature checks for the outcome token (docs/token.md, "Checking a token"): the
// browser's WebCrypto where it has Ed25519 (Chromium 137+, Safari 17+, Firefox 129+), and
// otherwise @noble/ed25519, bundled apart (tools/build/dist.py) and fetched only by a browser whose
// WebCrypto refuses the algorithm, so no other visit downloads it.
import { config } from "./state.js";

/** @type {Promise<(signature: Uint8Array, message: Uint8Array, key: Uint8Array) => Promise<boolean>> | null} */
let fallback = null;
let native = true; // until WebCrypto says it has no Ed25519

/**
 * Whether an error is a browser's way of saying it does not know the algorithm.
 * @param {unknown} error
 */
function unsupported(error) {
  return error instanceof DOMException && error.name === "NotSupportedError";
}

/** The fallback's verify, its chunk imported once (config.ed25519: its hashed URL). */
function fallbackVerify() {
  if (!fallback) {
    fallback = import(config.ed25519).then((chunk) => chunk.verify);
    fallback.catch(() => {
      fallback = null; // a failed download is tried again at the next check
    });
  }
  return fallback;
}

/**
 * Whether `signature` is an Ed25519 signature of `message` by the public key whose JWK `x`
 * (base64url) is given, as its 32 raw bytes `key`.
 * @param {string} x
 * @param {Uint8Array<ArrayBuffer>} key
 * @param {Uint8Array<ArrayBuffer>} signature
 * @param {Uint8Array<ArrayBuffer>} message
 * @returns {Promise<boolean>}
 */
export async function verifyEd25519(x, key, signature, message) {
  if (native) {
    try {
      const imported = await crypto.subtle.importKey(
        "jwk",
        { kty: "OKP", crv: "Ed25519", x },
        { name: "Ed25519" },
        false,
        ["verify"],
      );
      return await crypto.subtle.verify({ name: "Ed25519" }, imported, signature, message);
    } catch (error) {
      if (!unsupported(error)) throw error;
      native = false;
    }
  }
  const verify = await fallbackVerify();
  return verify(signature, message, key);
}
