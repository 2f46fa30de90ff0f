"""What an auditor runs: the PAR sheet, a pool recounted from its reveal, one play verified."""
