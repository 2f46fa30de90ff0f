"""The pools: laid out, kept sealed in the database, cached in memory, sold from and revealed;
imports only the store and the endpoint's shared modules."""
