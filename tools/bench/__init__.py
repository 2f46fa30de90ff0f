"""The benchmarks `build.py bench` runs, one module per flag, and what they share."""
