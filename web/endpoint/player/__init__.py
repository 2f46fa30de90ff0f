"""The player's side: accounts, sessions, sign-in codes, spend limits and play time; imports only
the store and the endpoint's shared modules."""
