"""The signing endpoint: accounts, demo wallet, purchase, signed outcome tokens, ledger, pools."""
