"""The public log: records appended with each sale, checkpoints, tiles and witnesses."""
