"""The signing endpoint: accounts, demo wallet, purchase, signed outcome tokens, ledger, pools.

Its rooms import one way (tests/test_import_rules.py): `http` (services, routes, the error
table, the API's documents) -> `sales` (purchase, sellers, plays) -> `player` (accounts,
sessions, limits, play time) and `pools` -> `store` (database, schema, migrations); every room
may import the shared modules here (errors, settings, clock, keys, tokens, times, recheck), and
`testmode` is plugged in by `app.py` alone.
"""
