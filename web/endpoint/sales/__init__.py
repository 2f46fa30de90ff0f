"""Sales and plays: the purchase, its sellers and their SQL, finish, progress, settlement, the
books' hashes and TRY mode's free plays; imports the player's side, the pools and the store."""
