"""The public log (docs/log.md): its records appended in the transaction of each fact they tell,
sequenced into an RFC 6962 tree and signed as checkpoints, served as tiles, checkpoints and
proofs; imports only the store and the endpoint's shared modules (the formats are engine.tlog's).
"""
