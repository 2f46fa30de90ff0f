"""The public record's formats: an append-only Merkle tree (RFC 6962) of the log's records,
served as tiles (c2sp.org/tlog-tiles), its checkpoints as signed notes
(c2sp.org/tlog-checkpoint, c2sp.org/signed-note), witnesses' cosignatures
(c2sp.org/tlog-cosignature), a play's proof (c2sp.org/tlog-proof) and the trust policy that says
whose signatures count (c2sp.org/tlog-policy).

Pure: hashing, proofs and text formats, no I/O and no keys. Signing is the endpoint's and the
witness's (web/endpoint/log/, tools/witness/); checking a signature is handed in as a function
(`Verify`), so the same code checks notes with `cryptography` on a server and with WebCrypto in
the browser. docs/log.md is the manual.
"""
